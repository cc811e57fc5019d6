package io.quarkiverse.ratelimit.runtime.fallback;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.LimitDefinition;

/**
 * This instance's own limiter, for when Redis cannot decide: the same window semantics as the Lua scripts (a fixed
 * window, or the weighted sliding window counter), on the JVM clock, each instance allowing its share of the limit.
 * Memory is bounded: at most {@code maxEntries} counters, each dropped two windows after its last use.
 */
public final class LocalRateLimiter {

    private final Cache<String, Counter> counters;
    private final int expectedInstances;
    private final LongSupplier millisClock;

    public LocalRateLimiter(int maxEntries, int expectedInstances, LongSupplier millisClock) {
        this.expectedInstances = expectedInstances;
        this.millisClock = millisClock;
        this.counters = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .expireAfter(new TwoWindowsAfterUse())
                .build();
    }

    /** This instance's share of a limit: {@code limit / expected-instances}, at least 1. */
    public long localLimit(LimitDefinition limit) {
        return Math.max(1, limit.getLimit() / expectedInstances);
    }

    public RateLimitDecision acquire(String tenantTag, LimitDefinition limit) {
        Counter counter = counters.get(tenantTag + '\n' + limit.getName(), key -> new Counter(limit.getWindowMillis()));
        return counter.acquire(millisClock.getAsLong(), limit, localLimit(limit));
    }

    public long size() {
        counters.cleanUp();
        return counters.estimatedSize();
    }

    private static final class Counter {

        private final long windowMillis;
        private long window = Long.MIN_VALUE;
        private long current;
        private long previous;

        Counter(long windowMillis) {
            this.windowMillis = windowMillis;
        }

        synchronized RateLimitDecision acquire(long nowMillis, LimitDefinition limit, long localLimit) {
            long nowWindow = Math.floorDiv(nowMillis, windowMillis);
            if (nowWindow != window) {
                previous = nowWindow == window + 1 ? current : 0;
                current = 0;
                window = nowWindow;
            }
            long windowEnd = (nowWindow + 1) * windowMillis - nowMillis;
            boolean sliding = limit.getAlgorithm() != Algorithm.FIXED_WINDOW;
            double elapsed = nowMillis - nowWindow * windowMillis;
            double weighted = sliding ? previous * (windowMillis - elapsed) / windowMillis + current : current;
            if (weighted + 1 > localLimit) {
                return decision(limit, false, (long) Math.max(0, localLimit - weighted), windowEnd,
                        retryAfter(sliding, localLimit, elapsed, windowEnd));
            }
            current++;
            return decision(limit, true, (long) (localLimit - weighted - 1), windowEnd, 0);
        }

        /** As in the scripts: when enough of the previous window has slid out, or into the next window. */
        private long retryAfter(boolean sliding, long localLimit, double elapsed, long windowEnd) {
            if (!sliding) {
                return windowEnd;
            }
            if (current + 1 <= localLimit) {
                return (long) Math.ceil(windowMillis * (1 - (double) (localLimit - current - 1) / previous) - elapsed);
            }
            return (long) Math.ceil(windowEnd + windowMillis * (1 - (double) (localLimit - 1) / current));
        }

        private static RateLimitDecision decision(LimitDefinition limit, boolean allowed, long remaining,
                long resetMillis, long retryAfterMillis) {
            return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), allowed, remaining,
                    Duration.ofMillis(resetMillis), Duration.ofMillis(Math.max(allowed ? 0 : 1, retryAfterMillis)), true);
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
