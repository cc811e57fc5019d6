package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.cache.CacheBuiltOnFirstWrite;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * This instance's own limiter, for when Redis cannot decide: the same window semantics as the Lua scripts (a fixed
 * window, or the weighted sliding window counter), on the JVM clock, each instance allowing its share of the limit.
 * Memory is bounded: at most {@code maxEntries} counters, each dropped two windows after its last use.
 */
public final class LocalFallback {

    private final CacheBuiltOnFirstWrite<String, Counter> counters;
    private final int expectedInstances;
    private final LongSupplier millisClock;

    public LocalFallback(int maxEntries, int expectedInstances, LongSupplier millisClock) {
        this.expectedInstances = expectedInstances;
        this.millisClock = millisClock;
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

    /** This instance's share of a limit: {@code limit / expected-instances}, at least 1. */
    public long localLimit(LimitDefinition limit) {
        return instanceShare(limit.getLimit(), expectedInstances);
    }

    /**
     * Decides every limit of a call (each counted under its Redis key), all or nothing like the script: the call is recorded in
     * every counter only if every
     * limit admits it. One lock for all counters keeps that atomic; this is the degraded path, where simple beats fast.
     */
    public synchronized List<RateLimitDecision> acquire(List<String> keys, List<LimitDefinition> limits) {
        long now = millisClock.getAsLong();
        Cache<String, Counter> held = this.counters.built();
        List<Counter> counters = new ArrayList<>(limits.size());
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        boolean admitted = true;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            Counter counter = held.get(keys.get(i), key -> new Counter(limit.getWindowMillis()));
            RateLimitDecision decision = counter.check(now, limit, localLimit(limit));
            counters.add(counter);
            decisions.add(decision);
            admitted &= decision.allowed();
        }
        if (admitted) {
            for (int i = 0; i < limits.size(); i++) {
                counters.get(i).record(limits.get(i).getCost());
            }
        }
        return decisions;
    }

    public long size() {
        return counters.size();
    }

    private static final class Counter {

        private final long windowMillis;
        private long window = Long.MIN_VALUE;
        private long current;
        private long previous;

        Counter(long windowMillis) {
            this.windowMillis = windowMillis;
        }

        RateLimitDecision check(long nowMillis, LimitDefinition limit, long localLimit) {
            long nowWindow = Math.floorDiv(nowMillis, windowMillis);
            if (nowWindow != window) {
                previous = nowWindow == window + 1 ? current : 0;
                current = 0;
                window = nowWindow;
            }
            long cost = limit.getCost();
            long windowEnd = (nowWindow + 1) * windowMillis - nowMillis;
            boolean sliding = limit.getAlgorithm() != Algorithm.FIXED_WINDOW;
            double elapsed = nowMillis - nowWindow * windowMillis;
            double weighted = sliding ? previous * (windowMillis - elapsed) / windowMillis + current : current;
            if (weighted + cost > localLimit) {
                long retryAfter = cost > localLimit ? -1 : retryAfter(sliding, localLimit, cost, elapsed, windowEnd);
                return decision(limit, false, (long) Math.max(0, localLimit - weighted), windowEnd, retryAfter);
            }
            return decision(limit, true, (long) (localLimit - weighted - cost), windowEnd, 0);
        }

        void record(long cost) {
            current += cost;
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
