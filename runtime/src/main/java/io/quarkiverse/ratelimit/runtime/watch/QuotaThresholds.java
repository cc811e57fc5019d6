package io.quarkiverse.ratelimit.runtime.watch;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.event.Event;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.QuotaThresholdReached;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.observe.DecidedBy;
import io.quarkiverse.ratelimit.runtime.observe.DecidedCall;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObserver;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * Tells the application when a call takes a limit's use to a configured share of it ({@code quarkus.rate-limit.thresholds}):
 * the call whose decision crossed a threshold writes a marker for its limit key, threshold and period ({@code SET NX},
 * in the key's slot), and only the instance whose marker was new fires {@link QuotaThresholdReached}, asynchronously,
 * and counts it. So each threshold is reported once per period across the fleet, and the decision never waits: the
 * marker is written after the call was answered.
 * <p>
 * A period is the limit's window aligned to the epoch on this instance's clock. A counter that goes down and up again
 * within it (a refund, a sliding window, a refilling bucket) crosses a threshold again without a second event; a
 * marker that cannot be written (Redis unavailable) loses that event, never the decision.
 */
@Singleton
public class QuotaThresholds implements DecisionObserver {

    private static final Logger LOG = Logger.getLogger(QuotaThresholds.class);

    private final int[] percents;
    private final RedisTransport redis;
    private final Event<QuotaThresholdReached> events;
    private final RateLimitMetrics metrics;
    /** Which period a counter is in: its window aligned to the epoch on this instance's wall time. */
    private final InstanceClock clock;

    QuotaThresholds(RateLimitConfig config, RedisTransport redis, Event<QuotaThresholdReached> events,
            RateLimitMetrics metrics, InstanceClock clock) {
        this.clock = clock;
        this.percents = config.thresholds().orElse(List.of()).stream().mapToInt(Integer::intValue).distinct().sorted()
                .toArray();
        this.redis = redis;
        this.events = events;
        this.metrics = metrics;
    }

    /** Looks for thresholds crossed by Redis's decisions of one call (limits in shadow mode are not reported). */
    @Override
    public void decided(DecidedCall call) {
        if (percents.length == 0 || call.by() != DecidedBy.REDIS) {
            return;
        }
        List<String> keys = call.keys();
        List<LimitDefinition> limits = call.limits();
        List<RateLimitDecision> decisions = call.decisions();
        ShadowMask shadow = call.shadow();
        String tenant = call.tenant();
        for (int i = 0; i < decisions.size(); i++) {
            if (!decisions.get(i).allowed() && !shadow.contains(i)) {
                return; // a refused call consumed nothing: its limits that would have admitted it show their use as is
            }
        }
        for (int i = 0; i < decisions.size(); i++) {
            RateLimitDecision decision = decisions.get(i);
            if (decision.allowed() && !decision.degraded() && !shadow.contains(i)) {
                crossed(keys.get(i), limits.get(i).getCost(), decision, tenant);
            }
        }
    }

    private void crossed(String key, long cost, RateLimitDecision decision, String tenant) {
        long used = decision.limit() - decision.remaining();
        for (int percent : percents) {
            long threshold = (decision.limit() * percent + 99) / 100; // the units that reach it, rounded up
            if (used >= threshold && used - cost < threshold) {
                report(key, percent, used, decision, tenant);
            }
        }
    }

    private void report(String key, int percent, long used, RateLimitDecision decision, String tenant) {
        long windowMillis = Math.max(1, decision.window().toMillis());
        long period = clock.currentTimeMillis() / windowMillis;
        Request marker = Request.cmd(Command.SET).arg(RateLimitKeys.thresholdMarker(key, percent, period)).arg("1")
                .arg("NX").arg("PX").arg(windowMillis);
        redis.command(marker).subscribe().with(written -> {
            if (written == null) {
                return; // another call, on this instance or another, reached it first in this period
            }
            metrics.thresholdReached(decision.limitName(), percent);
            events.fireAsync(new QuotaThresholdReached(decision.limitName(), tenant, percent, decision.limit(), used,
                    decision.window(), Instant.ofEpochMilli(period * windowMillis)));
        }, failure -> LOG.debugf(failure, "Could not mark threshold %d%% of %s; not reported", percent, key));
    }
}
