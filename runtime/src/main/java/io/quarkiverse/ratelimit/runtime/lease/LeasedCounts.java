package io.quarkiverse.ratelimit.runtime.lease;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

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
import io.vertx.core.Promise;

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
    private final FleetSize fleet;
    /** The leases' time: the scripts' ({@code RateLimitTestClock} moves it with Redis's windows). */
    private final ScriptClock clock;
    private final InvalidationChannel invalidations;
    private final boolean enabled;
    private final long leaseMillis;
    private final int minSlice;
    /** The limits that never lease ({@code leases.excluded}). */
    private final Set<String> excluded;
    private final LeasedKeys keys;
    private final AtomicLong leaseIds = new AtomicLong();
    private final LongAdder leasedAdmissions = new LongAdder();
    private final LongAdder leasesTaken = new LongAdder();

    LeasedCounts(RedisDecisions redis, FleetSize fleet, ScriptClock clock, InstanceClock timers,
            InvalidationChannel invalidations, RateLimitConfig config) {
        this.redis = redis;
        this.fleet = fleet;
        this.clock = clock;
        this.invalidations = invalidations;
        LeaseConfig leases = config.leases();
        this.enabled = leases.enabled();
        this.leaseMillis = leases.duration().toMillis();
        this.minSlice = leases.minSlice();
        this.excluded = leases.excluded().orElse(Set.of());
        this.keys = new LeasedKeys(redis, fleet.id(), clock, timers, leaseMillis, minSlice);
        if (enabled) {
            invalidations.listen(new InvalidationListener() {
                @Override
                public void keysReset(List<String> reset) {
                    keys.drop(reset); // the reset deleted the slices in Redis: nothing to give back or admit from
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
        if (!leases(callKeys, limits, shadow)) {
            return null;
        }
        long now = clock.nanoTime();
        LimitDefinition limit = limits.get(0);
        LeasedKey leased = keys.called(callKeys.get(0), limit.getCost(), now);
        return leased == null ? null : fromSlice(leased, limit, now);
    }

    /** The call admitted from the key's slice, or {@code null} when the slice cannot admit it. */
    private List<RateLimitDecision> fromSlice(LeasedKey leased, LimitDefinition limit, long now) {
        Slice slice = leased.slice.get();
        if (slice == null || !slice.serves(limit, now) || !invalidations.live()) {
            return null;
        }
        long left = slice.take(limit.getCost());
        if (left < 0) {
            return null;
        }
        leasedAdmissions.increment();
        return List.of(slice.admitted(left, now));
    }

    @Override
    public Future<List<RateLimitDecision>> decide(List<String> callKeys, List<LimitDefinition> limits,
            ShadowMask shadow) {
        LeasedKey leased = leases(callKeys, limits, shadow) ? keys.get(callKeys.get(0)) : null;
        long now = clock.nanoTime();
        if (leased == null || !invalidations.live()) {
            return redis.decide(callKeys, limits, shadow);
        }
        LimitDefinition limit = limits.get(0);
        // no slice smaller than min-slice, nor one a call of this cost could not be admitted from
        long smallest = Math.max(minSlice, limit.getCost());
        long demand = leased.demand.perLease(now);
        // a slice this call could not be admitted from (a cost beyond what it holds) goes back in the call's own
        // decision, which can then count its units: Redis alone would refuse what the slice holds here
        if (demand < smallest && leased.slice.get() == null) {
            return inRedis(leased, callKeys, limits, shadow);
        }
        Future<Void> taking = leased.taking.get();
        Promise<Void> taken = taking == null ? Promise.promise() : null;
        if (taken == null || !leased.taking.compareAndSet(null, taken.future())) {
            taking = leased.taking.get();
            if (taking == null) {
                return inRedis(leased, callKeys, limits, shadow);
            }
            // the lease on its way takes back the slice this call could not be admitted from: after it, the call
            // is admitted from the new slice or decided in Redis, which then counts the old one's units
            return taking.transform(done -> {
                List<RateLimitDecision> local = fromSlice(leased, limit, clock.nanoTime());
                return local != null ? Future.succeededFuture(local) : inRedis(leased, callKeys, limits, shadow);
            });
        }
        String key = callKeys.get(0);
        // the slice this key held (spent, ended, or of another limit) is given back in the same call
        Slice previous = leased.slice.getAndSet(null);
        long unused = previous == null ? 0 : previous.drain();
        String id = Long.toString(leaseIds.incrementAndGet(), 36);
        return redis.takeLease(key, limit, fleet.id(), previous == null ? "" : previous.id, unused, id,
                demand < smallest ? 0 : demand, smallest, 2 * fleet.sharing(), leaseMillis)
                .map(reply -> {
                    if (reply.slice() > 0) {
                        leased.slice.set(new Slice(id, limit, reply.slice(), now, reply.leaseMillis(),
                                reply.decision().resetAfter()));
                        leasesTaken.increment();
                        keys.sweep();
                    }
                    return List.of(reply.decision());
                })
                .onComplete(done -> {
                    leased.taking.set(null);
                    taken.complete();
                });
    }

    /**
     * The call decided in Redis alone. A lease that was on its way meanwhile may have come back with a slice holding
     * the very units Redis refused the call for: the call is then admitted from it, so no refusal is given while this
     * instance holds what the call costs. (A refusal counts nothing in Redis.)
     */
    private Future<List<RateLimitDecision>> inRedis(LeasedKey leased, List<String> callKeys,
            List<LimitDefinition> limits, ShadowMask shadow) {
        return redis.decide(callKeys, limits, shadow).map(decisions -> {
            if (decisions.get(0).allowed()) {
                return decisions;
            }
            List<RateLimitDecision> local = fromSlice(leased, limits.get(0), clock.nanoTime());
            return local != null ? local : decisions;
        });
    }

    @Override
    public boolean holdsUnitsFor(List<String> callKeys, List<LimitDefinition> limits, ShadowMask shadow) {
        if (!leases(callKeys, limits, shadow)) {
            return false;
        }
        LeasedKey leased = keys.get(callKeys.get(0));
        Slice slice = leased == null ? null : leased.slice.get();
        return slice != null && slice.admits(limits.get(0), clock.nanoTime());
    }

    /** Whether a call may be admitted from a slice, or lease one. */
    private boolean leases(List<String> callKeys, List<LimitDefinition> limits, ShadowMask shadow) {
        if (!enabled || callKeys.size() != 1 || !shadow.isEmpty()) {
            return false;
        }
        LimitDefinition limit = limits.get(0);
        return limit.getCost() > 0 && limit.getMaxWaitMillis() == 0 && !limit.isAdaptive()
                && LEASING.contains(limit.getAlgorithm()) && !excluded.contains(limit.getName());
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

    /** Whether leases are on ({@code quarkus.rate-limit.leases.enabled}). */
    public boolean enabled() {
        return enabled;
    }

    /** The calls admitted from slices, with no Redis call, since start-up. */
    public long leasedAdmissions() {
        return leasedAdmissions.sum();
    }

    /** The leases taken since start-up. */
    public long leasesTaken() {
        return leasesTaken.sum();
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
