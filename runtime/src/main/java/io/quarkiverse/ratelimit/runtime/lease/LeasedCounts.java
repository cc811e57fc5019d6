package io.quarkiverse.ratelimit.runtime.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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

/**
 * The counts as every decision sees them ({@link CountStore}): Redis's ({@link RedisDecisions}), with leases in front
 * when they are on ({@code quarkus.rate-limit.leases}). For a key whose calls come fast on this instance, the decision
 * that goes to Redis also leases a slice of what is left ({@code lua/lease.lua}), which Redis counts at once; the next
 * calls of the key are admitted from the slice here ({@link #decideLocally}), with no round trip, until it is spent or
 * its lease ends, and what it left unused is given back. Since Redis counted every leased unit, the fleet never admits
 * more than the limit; a slice is at most a share of what is left across the live instances ({@link FleetSize}), and
 * near the limit none is taken, so the calls there are decided in Redis one by one, as without leases.
 * <p>
 * Only calls of one limit that do not wait for a slot, of the algorithms whose windows a slice can be spent in (fixed
 * window, sliding window counter, calendar window), and not adaptive, lease. A reset drops the keys' slices on every
 * instance (its announcement); any other change announced (run-time limits, blocks, switches) gives every slice back;
 * a call of another limit than its slice's (another plan) is not admitted from it; and no slice is used while this
 * instance cannot confirm it hears the announcements. Whatever is missed, a lease ends within its duration.
 */
@Singleton
public class LeasedCounts implements CountStore {

    private static final Logger LOG = Logger.getLogger(LeasedCounts.class);
    private static final Set<Algorithm> LEASING = EnumSet.of(Algorithm.FIXED_WINDOW,
            Algorithm.SLIDING_WINDOW_COUNTER, Algorithm.CALENDAR_WINDOW);
    /** A key with no slice and no call for this many lease durations is forgotten. */
    private static final int IDLE_LEASES = 20;
    /** The most a shutdown waits for its slices to be given back. */
    private static final long GIVE_BACK_WAIT_MILLIS = 250;

    private final RedisDecisions redis;
    private final FleetSize fleet;
    /** The leases' time: the scripts' ({@code RateLimitTestClock} moves it with Redis's windows). */
    private final ScriptClock clock;
    /** The sweep's timer. */
    private final InstanceClock timers;
    private final InvalidationChannel invalidations;
    private final boolean enabled;
    private final long leaseMillis;
    private final long leaseNanos;
    private final int minSlice;
    private final Map<String, LeasedKey> keys = new ConcurrentHashMap<>();
    private final AtomicLong leaseIds = new AtomicLong();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private final LongAdder leasedAdmissions = new LongAdder();
    private final LongAdder leasesTaken = new LongAdder();
    private volatile long sweepTimer = -1;
    private volatile boolean stopped;

    LeasedCounts(RedisDecisions redis, FleetSize fleet, ScriptClock clock, InstanceClock timers,
            InvalidationChannel invalidations, RateLimitConfig config) {
        this.redis = redis;
        this.fleet = fleet;
        this.clock = clock;
        this.timers = timers;
        this.invalidations = invalidations;
        LeaseConfig leases = config.leases();
        this.enabled = leases.enabled();
        this.leaseMillis = leases.duration().toMillis();
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.minSlice = leases.minSlice();
        if (enabled) {
            invalidations.listen(new InvalidationListener() {
                @Override
                public void keysReset(List<String> reset) {
                    // the reset deleted the slices in Redis: nothing to give back, nothing to admit from
                    for (String key : reset) {
                        LeasedKey leased = keys.get(key);
                        Slice slice = leased == null ? null : leased.slice.getAndSet(null);
                        if (slice != null) {
                            slice.drain();
                        }
                    }
                }

                @Override
                public void everythingChanged() {
                    giveBackAll();
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
        LeasedKey leased = keys.computeIfAbsent(callKeys.get(0), key -> new LeasedKey(leaseNanos, now));
        leased.demand.arrived(now);
        Slice slice = leased.slice.get();
        LimitDefinition limit = limits.get(0);
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
        if (leased == null || leased.demand.perLease(now) < minSlice || !invalidations.live()
                || !leased.asking.compareAndSet(false, true)) {
            return redis.decide(callKeys, limits, shadow);
        }
        String key = callKeys.get(0);
        LimitDefinition limit = limits.get(0);
        // the slice this key held (spent, ended, or of another limit) is given back in the same call
        Slice previous = leased.slice.getAndSet(null);
        long unused = previous == null ? 0 : previous.drain();
        String id = Long.toString(leaseIds.incrementAndGet(), 36);
        return redis.takeLease(key, limit, fleet.id(), previous == null ? "" : previous.id, unused, id,
                leased.demand.perLease(now), 2 * fleet.sharing(), leaseMillis)
                .map(reply -> {
                    if (reply.slice() > 0) {
                        leased.slice.set(new Slice(id, limit, reply.slice(), now, reply.leaseMillis(),
                                reply.decision().resetAfter()));
                        leasesTaken.increment();
                        sweep();
                    }
                    return List.of(reply.decision());
                })
                .onComplete(done -> leased.asking.set(false));
    }

    /** Whether a call may be admitted from a slice, or lease one. */
    private boolean leases(List<String> callKeys, List<LimitDefinition> limits, ShadowMask shadow) {
        if (!enabled || callKeys.size() != 1 || !shadow.isEmpty()) {
            return false;
        }
        LimitDefinition limit = limits.get(0);
        return limit.getCost() > 0 && limit.getMaxWaitMillis() == 0 && !limit.isAdaptive()
                && LEASING.contains(limit.getAlgorithm());
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
        for (String key : callKeys) {
            LeasedKey leased = keys.get(key);
            Slice slice = leased == null ? null : leased.slice.getAndSet(null);
            if (slice != null) {
                slice.drain();
            }
        }
        return redis.reset(callKeys);
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
        long held = 0;
        for (LeasedKey leased : keys.values()) {
            Slice slice = leased.slice.get();
            held += slice == null ? 0 : slice.units();
        }
        return held;
    }

    /** Gives back what a slice left unused, if anything; a failure only leaves its units counted (the safe side). */
    private Future<Long> giveBack(String key, Slice slice) {
        long unused = slice.drain();
        if (unused <= 0) {
            return Future.succeededFuture(0L);
        }
        return redis.returnLease(key, slice.limit, fleet.id(), slice.id, unused)
                .onFailure(failure -> LOG.debugf(failure, "Could not give back %d leased units of %s; they stay"
                        + " counted until the window ends", unused, key));
    }

    private List<Future<Long>> giveBackAll() {
        List<Future<Long>> givenBack = new ArrayList<>();
        keys.forEach((key, leased) -> {
            Slice slice = leased.slice.getAndSet(null);
            if (slice != null) {
                givenBack.add(giveBack(key, slice));
            }
        });
        return givenBack;
    }

    /** Starts the sweep once a slice is out: every lease duration, ended slices are given back, idle keys forgotten. */
    private void sweep() {
        if (sweeping.compareAndSet(false, true)) {
            sweepTimer = timers.setTimer(leaseMillis, this::sweepOnce);
        }
    }

    private void sweepOnce() {
        if (stopped) {
            return;
        }
        try {
            long now = clock.nanoTime();
            keys.forEach((key, leased) -> {
                Slice slice = leased.slice.get();
                if (slice != null && slice.ended(now) && leased.slice.compareAndSet(slice, null)) {
                    giveBack(key, slice);
                } else if (slice == null && !leased.asking.get()
                        && now - leased.demand.lastCallNanos() > IDLE_LEASES * leaseNanos) {
                    keys.remove(key, leased);
                }
            });
        } finally {
            if (!stopped) {
                sweepTimer = timers.setTimer(leaseMillis, this::sweepOnce);
            }
        }
    }

    /** At shutdown, before the Redis client closes: gives back every slice rather than leaving it to its window. */
    void stop(@Observes ShutdownEvent event) {
        stop();
        List<Future<Long>> givenBack = giveBackAll();
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
        stopped = true;
        long pending = sweepTimer;
        if (pending >= 0) {
            timers.cancelTimer(pending);
            sweepTimer = -1;
        }
    }
}
