package io.quarkiverse.ratelimit.runtime.outgoing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
import io.smallrye.mutiny.Uni;

/**
 * What the answer of the service an outgoing call went to (a REST Client's) does to the call's limits: a 429 or 503
 * naming a retry time pauses them fleet-wide ({@link DecisionGuard#pause}); a 429 lowers the adaptive ones
 * ({@link AdaptiveLimits}). Neither fails the call: a Redis that cannot be told is logged and the call's answer stands.
 */
@Singleton
public class UpstreamAnswers {

    private static final Logger LOG = Logger.getLogger(UpstreamAnswers.class);

    private final DecisionGuard guard;
    private final AdaptiveLimits adaptive;
    private final UpstreamPauses pauses;
    private final RateLimitMetrics metrics;
    /** Now, as a {@code Retry-After} date is read against. */
    private final InstanceClock clock;

    UpstreamAnswers(DecisionGuard guard, AdaptiveLimits adaptive, UpstreamPauses pauses, RateLimitMetrics metrics,
            InstanceClock clock) {
        this.clock = clock;
        this.guard = guard;
        this.adaptive = adaptive;
        this.pauses = pauses;
        this.metrics = metrics;
    }

    /**
     * @param outcome what the call returned or threw
     * @param limits the call's limits as configured
     * @param decidedAtMillis when Redis decided the call (wall clock, ms)
     */
    public Uni<Void> answered(Object outcome, List<String> keys, List<LimitDefinition> limits, long decidedAtMillis) {
        int status = UpstreamRetryTimes.status(outcome);
        if (status != 429 && status != 503) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> paused = pause(outcome, keys, limits);
        if (status != 429 || limits.stream().noneMatch(LimitDefinition::isAdaptive)) {
            return paused;
        }
        return paused.chain(() -> adaptive.refused(keys, limits, decidedAtMillis).onFailure().recoverWithItem(failure -> {
            LOG.debugf(failure, "Could not lower the adaptive limits of %s", limits);
            return null;
        }));
    }

    /** Pauses the limits fleet-wide until the retry time the upstream named, if it named one. */
    private Uni<Void> pause(Object outcome, List<String> keys, List<LimitDefinition> limits) {
        Duration retry = UpstreamRetryTimes.of(outcome, Instant.ofEpochMilli(clock.currentTimeMillis()));
        if (retry == null) {
            return Uni.createFrom().voidItem();
        }
        metrics.upstreamPaused(limits);
        // this instance's calls stop now, not once Redis announces it; its waiting calls take their next slot once
        // Redis holds the pause (before, Redis would give them one inside it)
        long until = pauses.hold(keys, Math.max(1, retry.toMillis()));
        return guard.pause(keys, limits, retry).invoke(() -> {
            pauses.heldInRedis(keys, until);
            pauses.wake(keys);
        }).onFailure().recoverWithItem(failure -> {
            LOG.debugf(failure, "Could not pause %s for %s", limits, retry);
            return null;
        });
    }
}
