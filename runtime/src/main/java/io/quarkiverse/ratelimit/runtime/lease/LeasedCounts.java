package io.quarkiverse.ratelimit.runtime.lease;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.LeaseConfig;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationListener;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.quarkiverse.ratelimit.runtime.store.CountStore;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Future;

/**
 * The counts as every decision sees them ({@link CountStore}): Redis's ({@link RedisDecisions}), with leases in front
 * when they are on ({@code quarkus.rate-limit.leases}). For a key whose calls come fast on this instance, the decision
 * that goes to Redis also leases a slice of what is left ({@code lua/lease.lua}), which Redis counts at once; the next
 * calls of the key are admitted from the slice here ({@link #decideLocally}), with no round trip, until it is spent or
 * its lease ends, and what it left unused is given back. Since Redis counted every leased unit, the fleet never admits
 * more than the limit; a slice is at most a share of what is left across the live instances ({@link FleetSize}), and
 * near the limit none is taken, so the calls there are decided in Redis one by one, as without leases.
 * <p>
 * Only calls of one limit that do not wait for a slot lease, of every algorithm but the sliding window log (whose every
 * call keeps its own timestamp), and not adaptive. A window's slice is spent in its window only; a bucket's lease also
 * charges what the bucket refills during it ({@code lua/lease.lua}), so the bucket and the slice never hold more than
 * its burst. A reset drops the keys' slices on every
 * instance (its announcement); any other change announced (run-time limits, blocks, switches) gives every slice back;
 * a call of another limit than its slice's (another plan) is not admitted from it; and no slice is used while this
 * instance cannot confirm it hears the announcements. Whatever is missed, a lease ends within its duration.
 */
@Singleton
public class LeasedCounts implements CountStore {

    private static final Logger LOG = Logger.getLogger(LeasedCounts.class);
    /** Every algorithm but the sliding window log, whose every call keeps its own timestamp. */
    private static final Set<Algorithm> LEASING = EnumSet.complementOf(EnumSet.of(Algorithm.SLIDING_WINDOW_LOG));
    /** The most a shutdown waits for its slices to be given back. */
    private static final long GIVE_BACK_WAIT_MILLIS = 250;

    private final RedisDecisions redis;
    private final boolean enabled;
    /** The limits that never lease ({@code leases.excluded}). */
    private final Set<String> excluded;
    private final int minSlice;
    private final LeasedKeys keys;
    private final HotKeyDecisions hotKeys;

    LeasedCounts(RedisDecisions redis, FleetSize fleet, ScriptClock clock, InstanceClock timers,
            InvalidationChannel invalidations, RateLimitConfig config) {
        this.redis = redis;
        LeaseConfig leases = config.leases();
        // a threshold event is fired by the Redis decision whose count crosses it, one call's cost at a time: a lease
        // would move the count by a whole slice, past the threshold unseen (QuotaThresholds)
        this.enabled = leases.enabled() && config.thresholds().map(List::isEmpty).orElse(true);
        long leaseMillis = leases.duration().toMillis();
        this.excluded = leases.excluded().orElse(Set.of());
        this.minSlice = leases.minSlice();
        this.keys = new LeasedKeys(redis, fleet.id(), clock, timers, leaseMillis, leases.minSlice());
        long waitMillis = Math.min(leaseMillis, config.decisionTimeout().toMillis() / 2);
        this.hotKeys = new HotKeyDecisions(redis, fleet, clock, timers, invalidations, keys, leaseMillis, waitMillis,
                leases.minSlice());
        if (enabled) {
            invalidations.listen(new InvalidationListener() {
                @Override
                public void keysReset(List<String> reset) {
                    keys.drop(reset); // the reset deleted the slices in Redis: nothing to give back or admit from
                    keys.changed(reset);
                }

                @Override
                public void keysChanged(List<String> changed) {
                    keys.changed(changed);
                }

                @Override
                public void keysRecalled(List<String> recalled) {
                    keys.recall(recalled);
                }

                @Override
                public void everythingChanged() {
                    keys.giveBackAll();
                }
            });
        }
    }

    @Override
    public List<RateLimitDecision> decideLocally(List<String> callKeys, List<LimitDefinition> limits,
            ShadowMask shadow) {
        return leases(callKeys, limits, shadow) ? hotKeys.fromSlice(callKeys.get(0), limits.get(0)) : null;
    }

    @Override
    public Future<List<RateLimitDecision>> decide(List<String> callKeys, List<LimitDefinition> limits,
            ShadowMask shadow) {
        if (!leases(callKeys, limits, shadow)) {
            return redis.decide(callKeys, limits, shadow);
        }
        return hotKeys.withRedis(callKeys, limits, shadow);
    }

    @Override
    public boolean holdsUnitsFor(List<String> callKeys, List<LimitDefinition> limits, ShadowMask shadow) {
        return leases(callKeys, limits, shadow) && hotKeys.holdsUnitsFor(callKeys.get(0), limits.get(0));
    }

    /** Whether a call may be admitted from a slice, or lease one. */
    private boolean leases(List<String> callKeys, List<LimitDefinition> limits, ShadowMask shadow) {
        if (!enabled || callKeys.size() != 1 || !shadow.isEmpty()) {
            return false;
        }
        LimitDefinition limit = limits.get(0);
        // a limit that holds fewer than two smallest slices of single calls can never lease (a slice is at most half of
        // what is left): its refusals need not ask what slices hold, and it is decided exactly as without leases. (A
        // costly call of a bigger limit still leases: a slice it cannot be admitted from goes back in its decision.)
        return limit.getCost() > 0 && limit.getMaxWaitMillis() == 0 && !limit.isAdaptive()
                && LEASING.contains(limit.getAlgorithm()) && !excluded.contains(limit.getName())
                && Math.max(limit.getLimit(), limit.getBurst()) >= 2L * minSlice;
    }

    @Override
    public Future<Void> refund(List<String> callKeys, List<LimitDefinition> limits) {
        return redis.refund(callKeys, limits);
    }

    @Override
    public Future<List<RateLimitDecision>> settle(List<String> callKeys, List<LimitDefinition> limits) {
        return redis.settle(callKeys, limits);
    }

    @Override
    public Future<Void> pause(List<String> callKeys, List<LimitDefinition> limits, Duration pause) {
        return redis.pause(callKeys, limits, pause);
    }

    /** Deletes the keys' state and their slices, here at once, on the other instances when they hear of it. */
    @Override
    public Future<Integer> reset(List<String> callKeys) {
        keys.drop(callKeys);
        return redis.reset(callKeys);
    }

    @Override
    public Future<List<Long>> leased(List<String> callKeys) {
        return redis.leased(callKeys);
    }

    /** Whether leases are on ({@code quarkus.rate-limit.leases.enabled}). */
    public boolean enabled() {
        return enabled;
    }

    /** The calls admitted from slices, with no Redis call, since start-up. */
    public long leasedAdmissions() {
        return hotKeys.leasedAdmissions();
    }

    /** The leases taken since start-up. */
    public long leasesTaken() {
        return hotKeys.leasesTaken();
    }

    /** The units this instance holds in slices now, not spent yet. */
    public long unitsHeld() {
        return keys.unitsHeld();
    }

    /** At shutdown, before the Redis client closes: gives back every slice rather than leaving it to its window. */
    void stop(@Observes ShutdownEvent event) {
        stop();
        List<Future<Long>> givenBack = keys.giveBackAll();
        if (!givenBack.isEmpty()) {
            try {
                Future.join(givenBack).toCompletionStage().toCompletableFuture().get(GIVE_BACK_WAIT_MILLIS,
                        TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.debugf(e, "Could not give back every slice at shutdown; they stay counted until their windows end");
            }
        }
    }

    @PreDestroy
    void stop() {
        keys.stop();
    }
}
