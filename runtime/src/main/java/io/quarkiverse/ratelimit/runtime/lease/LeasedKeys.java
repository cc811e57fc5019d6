package io.quarkiverse.ratelimit.runtime.lease;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * The keys this instance leases, and what goes back: the hot keys' slices ({@link LeasedKey}), found hot by
 * {@link HotKeys}; a slice that ends, is dropped by a change or is left at shutdown gives its unused units back
 * ({@code lua/lease.lua}); a sweep every lease duration gives back the ended slices of keys nobody calls any more, and
 * forgets keys idle for long.
 */
final class LeasedKeys {

    private static final Logger LOG = Logger.getLogger(LeasedKeys.class);
    /** A key with no slice and no call for this many lease durations is forgotten. */
    private static final int IDLE_LEASES = 20;

    private final RedisDecisions redis;
    private final String instance;
    private final ScriptClock clock;
    private final InstanceClock timers;
    private final long leaseMillis;
    private final long leaseNanos;
    private final int minSlice;
    /** The keys whose calls came fast enough for a lease, until they are idle. */
    private final Map<String, LeasedKey> keys = new ConcurrentHashMap<>();
    /** How fast the other keys' calls come: which become hot. */
    private final HotKeys hot;
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile long sweepTimer = -1;
    private volatile boolean stopped;

    LeasedKeys(RedisDecisions redis, String instance, ScriptClock clock, InstanceClock timers, long leaseMillis,
            int minSlice) {
        this.redis = redis;
        this.instance = instance;
        this.clock = clock;
        this.timers = timers;
        this.leaseMillis = leaseMillis;
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.minSlice = minSlice;
        this.hot = new HotKeys(leaseNanos, minSlice, clock.nanoTime());
    }

    /**
     * The key's leasing, counting a call of it of {@code cost} at {@code nowNanos}; {@code null} while its calls are too
     * slow for a lease (a key like that costs one lookup and its slot in the table of hot keys).
     */
    LeasedKey called(String key, long cost, long nowNanos) {
        LeasedKey leased = keys.get(key);
        if (leased == null) {
            if (!hot.arrived(key, nowNanos)) {
                return null;
            }
            // the calls the table counted, at this call's cost
            leased = keys.computeIfAbsent(key, hotKey -> new LeasedKey(leaseNanos, nowNanos, (minSlice - 1L) * cost));
        }
        leased.demand.arrived(nowNanos, cost);
        return leased;
    }

    /**
     * The key's leasing, hot or not: a call refused here waits on it for what other instances' slices give back. A key
     * that stays too slow to lease is forgotten when idle, as a hot one is.
     */
    LeasedKey watched(String key, long nowNanos) {
        LeasedKey leased = keys.computeIfAbsent(key, slowKey -> new LeasedKey(leaseNanos, nowNanos, 0));
        sweep();
        return leased;
    }

    /** The key's leasing, if it is hot; counts no call. */
    LeasedKey get(String key) {
        return keys.get(key);
    }

    /** Drops the keys' slices without giving them back (a reset deleted them in Redis). */
    void drop(List<String> dropped) {
        for (String key : dropped) {
            LeasedKey leased = keys.get(key);
            Slice slice = leased == null ? null : leased.slice.getAndSet(null);
            if (slice != null) {
                slice.drain();
            }
        }
    }

    /** The keys' counts changed (a slice given back, a refund): the calls waiting for units to come back try again. */
    void changed(List<String> changed) {
        for (String key : changed) {
            LeasedKey leased = keys.get(key);
            if (leased == null) {
                continue;
            }
            leased.changes.incrementAndGet(); // before the wait is completed: a call that missed it sees the count
            Promise<Void> waiting = leased.givenBack.getAndSet(null);
            if (waiting != null) {
                waiting.tryComplete();
            }
        }
    }

    /**
     * Gives back the slices of keys near their limit ({@code lua/lease.lua} recalls them): what they left, and the
     * leases themselves, spent or not, so that Redis stops recalling them.
     */
    void recall(List<String> recalled) {
        for (String key : recalled) {
            LeasedKey leased = keys.get(key);
            Slice slice = leased == null ? null : leased.slice.getAndSet(null);
            if (slice != null) {
                giveBack(key, slice, slice.drain());
            }
        }
    }

    /**
     * Gives back what a slice left unused, if anything, and ends its lease in Redis, spent or not: a lease Redis still
     * knows may be recalled, and a call refused meanwhile waits for it. A failure only leaves its units counted (the
     * safe side).
     */
    Future<Long> giveBack(String key, Slice slice) {
        return giveBack(key, slice, slice.drain());
    }

    private Future<Long> giveBack(String key, Slice slice, long unused) {
        return redis.returnLease(key, slice.limit, instance, slice.id, unused)
                .onFailure(failure -> LOG.debugf(failure, "Could not give back %d leased units of %s; they stay"
                        + " counted until their window ends", unused, key));
    }

    /** Gives back every slice held. */
    List<Future<Long>> giveBackAll() {
        List<Future<Long>> givenBack = new ArrayList<>();
        keys.forEach((key, leased) -> {
            Slice slice = leased.slice.getAndSet(null);
            if (slice != null) {
                givenBack.add(giveBack(key, slice));
            }
        });
        return givenBack;
    }

    /** The units held in slices now, not spent yet. */
    long unitsHeld() {
        long held = 0;
        for (LeasedKey leased : keys.values()) {
            Slice slice = leased.slice.get();
            held += slice == null ? 0 : slice.units();
        }
        return held;
    }

    /**
     * Starts the sweep once a slice is out or a key watched: every lease duration, ended slices are given back, idle keys
     * forgotten.
     */
    void sweep() {
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
                } else if (slice == null && leased.taking.get() == null
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

    void stop() {
        stopped = true;
        long pending = sweepTimer;
        if (pending >= 0) {
            timers.cancelTimer(pending);
            sweepTimer = -1;
        }
    }
}
