package io.quarkiverse.ratelimit.runtime.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

class LocalFallbackTest {

    static final long WINDOW_START = 1_700_000_000_000L;

    final AtomicLong millis = new AtomicLong(WINDOW_START);

    @Test
    void eachInstanceAllowsItsShareOfTheLimit() {
        LocalFallback limiter = new LocalFallback(100, 4, millis::get);
        LimitDefinition limit = limit(10, Algorithm.FIXED_WINDOW);
        assertThat(limiter.localLimit(limit)).isEqualTo(2);
        assertThat(one(limiter, "t", limit).allowed()).isTrue();
        assertThat(one(limiter, "t", limit).allowed()).isTrue();
        RateLimitDecision refused = one(limiter, "t", limit);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.degraded()).isTrue();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aLimitSmallerThanTheInstanceCountStillAllowsOne() {
        LocalFallback limiter = new LocalFallback(100, 8, millis::get);
        assertThat(limiter.localLimit(limit(3, Algorithm.FIXED_WINDOW))).isEqualTo(1);
    }

    @Test
    void tenantsAndWindowsAreIndependent() {
        LocalFallback limiter = new LocalFallback(100, 1, millis::get);
        LimitDefinition limit = limit(1, Algorithm.FIXED_WINDOW);
        assertThat(one(limiter, "a", limit).allowed()).isTrue();
        assertThat(one(limiter, "a", limit).allowed()).isFalse();
        assertThat(one(limiter, "b", limit).allowed()).isTrue();
        millis.addAndGet(1000);
        assertThat(one(limiter, "a", limit).allowed()).isTrue();
    }

    @Test
    void theSlidingWindowWeighsThePreviousWindowLikeTheScript() {
        LocalFallback limiter = new LocalFallback(100, 1, millis::get);
        LimitDefinition limit = limit(10, Algorithm.SLIDING_WINDOW_COUNTER);
        millis.set(WINDOW_START + 900);
        for (int i = 0; i < 10; i++) {
            assertThat(one(limiter, "t", limit).allowed()).isTrue();
        }
        millis.set(WINDOW_START + 1300);
        int admitted = 0;
        while (one(limiter, "t", limit).allowed()) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(3);
    }

    @Test
    void memoryIsBoundedByMaxEntries() {
        LocalFallback limiter = new LocalFallback(50, 1, millis::get);
        LimitDefinition limit = limit(5, Algorithm.FIXED_WINDOW);
        for (int i = 0; i < 1000; i++) {
            one(limiter, "tenant-" + i, limit);
        }
        assertThat(limiter.size()).isLessThanOrEqualTo(50);
    }

    @Test
    void aCallRefusedByOneLimitConsumesNothingFromTheOthers() {
        LocalFallback limiter = new LocalFallback(100, 1, millis::get);
        LimitDefinition roomy = LimitDefinition.builder("roomy", 10, 1000).algorithm(Algorithm.FIXED_WINDOW)
                .failureMode(FailureMode.LOCAL).build();
        LimitDefinition tight = LimitDefinition.builder("tight", 1, 1000).algorithm(Algorithm.FIXED_WINDOW)
                .failureMode(FailureMode.LOCAL).build();
        List<String> keys = List.of("t:roomy", "t:tight");
        assertThat(limiter.acquire(keys, List.of(roomy, tight))).allMatch(RateLimitDecision::allowed);
        List<RateLimitDecision> refused = limiter.acquire(keys, List.of(roomy, tight));
        assertThat(refused.get(0).allowed()).isTrue();
        assertThat(refused.get(1).allowed()).isFalse();
        assertThat(one(limiter, "t", roomy).remaining()).as("only the first call counted in roomy").isEqualTo(8);
    }

    private static RateLimitDecision one(LocalFallback limiter, String tenant, LimitDefinition limit) {
        return limiter.acquire(List.of(tenant + ":" + limit.getName()), List.of(limit)).get(0);
    }

    private static LimitDefinition limit(long limit, Algorithm algorithm) {
        return LimitDefinition.builder("limit", limit, 1000).algorithm(algorithm).failureMode(FailureMode.LOCAL).build();
    }
}
