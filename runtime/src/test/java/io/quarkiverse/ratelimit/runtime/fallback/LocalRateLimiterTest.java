package io.quarkiverse.ratelimit.runtime.fallback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.LimitDefinition;

class LocalRateLimiterTest {

    static final long WINDOW_START = 1_700_000_000_000L;

    final AtomicLong millis = new AtomicLong(WINDOW_START);

    @Test
    void eachInstanceAllowsItsShareOfTheLimit() {
        LocalRateLimiter limiter = new LocalRateLimiter(100, 4, millis::get);
        LimitDefinition limit = limit(10, Algorithm.FIXED_WINDOW);
        assertThat(limiter.localLimit(limit)).isEqualTo(2);
        assertThat(limiter.acquire("t", limit).allowed()).isTrue();
        assertThat(limiter.acquire("t", limit).allowed()).isTrue();
        RateLimitDecision refused = limiter.acquire("t", limit);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.degraded()).isTrue();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aLimitSmallerThanTheInstanceCountStillAllowsOne() {
        LocalRateLimiter limiter = new LocalRateLimiter(100, 8, millis::get);
        assertThat(limiter.localLimit(limit(3, Algorithm.FIXED_WINDOW))).isEqualTo(1);
    }

    @Test
    void tenantsAndWindowsAreIndependent() {
        LocalRateLimiter limiter = new LocalRateLimiter(100, 1, millis::get);
        LimitDefinition limit = limit(1, Algorithm.FIXED_WINDOW);
        assertThat(limiter.acquire("a", limit).allowed()).isTrue();
        assertThat(limiter.acquire("a", limit).allowed()).isFalse();
        assertThat(limiter.acquire("b", limit).allowed()).isTrue();
        millis.addAndGet(1000);
        assertThat(limiter.acquire("a", limit).allowed()).isTrue();
    }

    @Test
    void theSlidingWindowWeighsThePreviousWindowLikeTheScript() {
        LocalRateLimiter limiter = new LocalRateLimiter(100, 1, millis::get);
        LimitDefinition limit = limit(10, Algorithm.SLIDING_WINDOW_COUNTER);
        millis.set(WINDOW_START + 900);
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.acquire("t", limit).allowed()).isTrue();
        }
        millis.set(WINDOW_START + 1300);
        int admitted = 0;
        while (limiter.acquire("t", limit).allowed()) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(3);
    }

    @Test
    void memoryIsBoundedByMaxEntries() {
        LocalRateLimiter limiter = new LocalRateLimiter(50, 1, millis::get);
        LimitDefinition limit = limit(5, Algorithm.FIXED_WINDOW);
        for (int i = 0; i < 1000; i++) {
            limiter.acquire("tenant-" + i, limit);
        }
        assertThat(limiter.size()).isLessThanOrEqualTo(50);
    }

    private static LimitDefinition limit(long limit, Algorithm algorithm) {
        return new LimitDefinition("limit", limit, 1000, algorithm, FailureMode.LOCAL);
    }
}
