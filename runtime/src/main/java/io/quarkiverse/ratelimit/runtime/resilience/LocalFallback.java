package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.cache.CacheBuiltOnFirstWrite;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.store.CountStore;
import io.vertx.core.Future;

/**
 * This instance's own counts, for when Redis cannot decide: a {@link CountStore} with the same window semantics as the
 * Lua scripts (a fixed window, or the weighted sliding window counter), on this instance's clock, each instance
 * allowing its share of the limit. Every operation answers at once, from memory. Memory is bounded: at most
 * {@code maxEntries} counters, each dropped two windows after its last use.
 */
public final class LocalFallback implements CountStore {

    private final CacheBuiltOnFirstWrite<String, Counter> counters;
    /** How many instances share each limit now ({@code FleetSize#sharing}). */
    private final IntSupplier instances;
    private final InstanceClock clock;

    public LocalFallback(int maxEntries, IntSupplier instances, InstanceClock clock) {
        this.instances = instances;
        this.clock = clock;
        this.counters = new CacheBuiltOnFirstWrite<>(() -> Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .expireAfter(new TwoWindowsAfterUse())
                .<String, Counter> build());
    }

    /**
     * What one instance may admit alone of a limit shared by {@code instances}: {@code limit / instances}, at least 1.
     * The one rule for rate limits and concurrency limits without Redis.
     */
    public static long instanceShare(long limit, int instances) {
        return Math.max(1, limit / instances);
    }

    /** This instance's share of a limit: {@code limit / instances}, at least 1. */
    public long localLimit(LimitDefinition limit) {
        return instanceShare(limit.getLimit(), instances.getAsInt());
    }

    /**
     * Decides every limit of a call (each counted under its Redis key), all or nothing like the script: the call is
     * recorded in every counter only if every limit not in {@code shadow} admits it. One lock for all counters keeps
     * that atomic; this is the degraded path, where simple beats fast.
     */
    @Override
    public synchronized Future<List<RateLimitDecision>> decide(List<String> keys, List<LimitDefinition> limits,
            ShadowMask shadow) {
        long now = clock.currentTimeMillis();
        List<Counter> counters = counters(keys, limits);
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        boolean admitted = true;
        for (int i = 0; i < limits.size(); i++) {
            RateLimitDecision decision = counters.get(i).check(now, limits.get(i), localLimit(limits.get(i)));
            decisions.add(decision);
            admitted &= decision.allowed() || shadow.contains(i);
        }
        if (admitted) {
            for (int i = 0; i < limits.size(); i++) {
                counters.get(i).add(limits.get(i).getCost());
            }
        }
        return Future.succeededFuture(decisions);
    }

    @Override
    public synchronized Future<Void> refund(List<String> keys, List<LimitDefinition> limits) {
        long now = clock.currentTimeMillis();
        List<Counter> counters = counters(keys, limits);
        for (int i = 0; i < limits.size(); i++) {
            counters.get(i).roll(now);
            counters.get(i).add(-limits.get(i).getCost());
        }
        return Future.succeededFuture();
    }

    @Override
    public synchronized Future<List<RateLimitDecision>> settle(List<String> keys, List<LimitDefinition> limits) {
        long now = clock.currentTimeMillis();
        List<Counter> counters = counters(keys, limits);
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            counters.get(i).roll(now);
            counters.get(i).add(limit.getCost());
            decisions.add(counters.get(i).state(now, limit, localLimit(limit)));
        }
        return Future.succeededFuture(decisions);
    }

    @Override
    public synchronized Future<Void> pause(List<String> keys, List<LimitDefinition> limits, Duration pause) {
        long until = clock.currentTimeMillis() + pause.toMillis();
        for (Counter counter : counters(keys, limits)) {
            counter.pausedUntil = Math.max(counter.pausedUntil, until);
        }
        return Future.succeededFuture();
    }

    @Override
    public synchronized Future<Integer> reset(List<String> keys) {
        Cache<String, Counter> held = this.counters.built();
        int had = 0;
        for (String key : keys) {
            if (held.asMap().remove(key) != null) {
                had++;
            }
        }
        return Future.succeededFuture(had);
    }

    private List<Counter> counters(List<String> keys, List<LimitDefinition> limits) {
        Cache<String, Counter> held = this.counters.built();
        List<Counter> counters = new ArrayList<>(limits.size());
        for (int i = 0; i < limits.size(); i++) {
            long windowMillis = limits.get(i).getWindowMillis();
            counters.add(held.get(keys.get(i), key -> new Counter(windowMillis)));
        }
        return counters;
    }

    public long size() {
        return counters.size();
    }

    private static final class Counter {

        private final long windowMillis;
        private long window = Long.MIN_VALUE;
        private long current;
        private long previous;
        /** Until when no call is admitted (an upstream's retry time), in wall milliseconds. */
        private long pausedUntil;

        Counter(long windowMillis) {
            this.windowMillis = windowMillis;
        }

        /** Moves the counts into the window of {@code nowMillis}. */
        void roll(long nowMillis) {
            long nowWindow = Math.floorDiv(nowMillis, windowMillis);
            if (nowWindow != window) {
                previous = nowWindow == window + 1 ? current : 0;
                current = 0;
                window = nowWindow;
            }
        }

        RateLimitDecision check(long nowMillis, LimitDefinition limit, long localLimit) {
            roll(nowMillis);
            long cost = limit.getCost();
            long windowEnd = (window + 1) * windowMillis - nowMillis;
            boolean sliding = limit.getAlgorithm() != Algorithm.FIXED_WINDOW;
            double elapsed = nowMillis - window * windowMillis;
            double weighted = weighted(sliding, elapsed);
            if (nowMillis < pausedUntil) {
                return decision(limit, false, 0, windowEnd, pausedUntil - nowMillis);
            }
            if (weighted + cost > localLimit) {
                long retryAfter = cost > localLimit ? -1 : retryAfter(sliding, localLimit, cost, elapsed, windowEnd);
                return decision(limit, false, (long) Math.max(0, localLimit - weighted), windowEnd, retryAfter);
            }
            return decision(limit, true, (long) (localLimit - weighted - cost), windowEnd, 0);
        }

        /** The limit's state, counting nothing. */
        RateLimitDecision state(long nowMillis, LimitDefinition limit, long localLimit) {
            double weighted = weighted(limit.getAlgorithm() != Algorithm.FIXED_WINDOW, nowMillis - window * windowMillis);
            return decision(limit, weighted <= localLimit, (long) Math.max(0, localLimit - weighted),
                    (window + 1) * windowMillis - nowMillis, 0);
        }

        private double weighted(boolean sliding, double elapsed) {
            return sliding ? previous * (windowMillis - elapsed) / windowMillis + current : current;
        }

        /** Counts {@code cost} in the current window (a negative cost gives back; never below nothing). */
        void add(long cost) {
            current = Math.max(0, current + cost);
        }

        /** As in the scripts: when enough of the previous window has slid out, or into the next window. */
        private long retryAfter(boolean sliding, long localLimit, long cost, double elapsed, long windowEnd) {
            if (!sliding) {
                return windowEnd;
            }
            if (current + cost <= localLimit) {
                return Math.max(1, (long) Math.ceil(
                        windowMillis * (1 - (double) (localLimit - current - cost) / previous) - elapsed));
            }
            return Math.max(1, (long) Math.ceil(windowEnd + windowMillis * (1 - (double) (localLimit - cost) / current)));
        }

        private static RateLimitDecision decision(LimitDefinition limit, boolean allowed, long remaining,
                long resetMillis, long retryAfterMillis) {
            return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), allowed, remaining,
                    Duration.ofMillis(resetMillis), retryAfterMillis < 0 ? null : Duration.ofMillis(retryAfterMillis),
                    true);
        }
    }

    private static final class TwoWindowsAfterUse implements Expiry<String, Counter> {

        private static long twoWindows(Counter counter) {
            return TimeUnit.MILLISECONDS.toNanos(2 * counter.windowMillis);
        }

        @Override
        public long expireAfterCreate(String key, Counter counter, long currentTime) {
            return twoWindows(counter);
        }

        @Override
        public long expireAfterUpdate(String key, Counter counter, long currentTime, long currentDuration) {
            return twoWindows(counter);
        }

        @Override
        public long expireAfterRead(String key, Counter counter, long currentTime, long currentDuration) {
            return twoWindows(counter);
        }
    }
}
