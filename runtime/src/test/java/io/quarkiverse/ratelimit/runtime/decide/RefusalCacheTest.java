package io.quarkiverse.ratelimit.runtime.decide;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

class RefusalCacheTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final RefusalCache cache = new RefusalCache(100, now::get);
    private final LimitDefinition limit = limit(5, 1, true);

    @Test
    void repeatsARefusalUntilItsRetryTimeCountedFromWhenTheCallWasSent() {
        long sent = now.get();
        now.addAndGet(millis(3)); // the reply took 3 ms
        cache.remember(List.of("k"), List.of(limit), List.of(refused(limit, 500, 800)), sent);

        now.addAndGet(millis(100));
        List<RateLimitDecision> refusal = cache.refusal(List.of("k"), List.of(limit));
        assertThat(refusal).singleElement().satisfies(decision -> {
            assertThat(decision.allowed()).isFalse();
            assertThat(decision.retryAfter()).isEqualTo(Duration.ofMillis(397));
            assertThat(decision.resetAfter()).isEqualTo(Duration.ofMillis(697));
        });

        now.set(sent + millis(500));
        assertThat(cache.refusal(List.of("k"), List.of(limit))).isNull();
    }

    @Test
    void asksRedisForAnotherLimitValueOrASmallerCost() {
        cache.remember(List.of("k"), List.of(limit(5, 2, true)), List.of(refused(limit, 500, 500)), now.get());

        assertThat(cache.refusal(List.of("k"), List.of(limit(5, 1, true)))).isNull();
        assertThat(cache.refusal(List.of("k"), List.of(limit(6, 2, true)))).isNull();
        assertThat(cache.refusal(List.of("k"), List.of(limit(5, 3, true)))).hasSize(1);
    }

    @Test
    void holdsNothingForALimitThatOptsOutOrAnAdmissionOrACallThatCanNeverFit() {
        LimitDefinition optedOut = limit(5, 1, false);
        cache.remember(List.of("a", "b", "c"), List.of(optedOut, limit, limit), List.of(refused(optedOut, 500, 500),
                new RateLimitDecision("l", 5, Duration.ofSeconds(1), true, 2, Duration.ofSeconds(1), null, false),
                new RateLimitDecision("l", 5, Duration.ofSeconds(1), false, 0, Duration.ofSeconds(1), null, false)),
                now.get());

        assertThat(cache.size()).isZero();
    }

    @Test
    void aForgottenKeyGoesToRedisAgain() {
        cache.remember(List.of("k"), List.of(limit), List.of(refused(limit, 500, 500)), now.get());
        cache.forget("k");

        assertThat(cache.refusal(List.of("k"), List.of(limit))).isNull();
    }

    @Test
    void refusesACallWhenAnyOfItsLimitsIsHeldWithThatLimitsDecisionOnly() {
        LimitDefinition other = limit(100, 1, true);
        cache.remember(List.of("a", "b"), List.of(other, limit),
                List.of(new RateLimitDecision("l", 100, Duration.ofSeconds(1), true, 50, Duration.ofSeconds(1),
                        Duration.ZERO, false), refused(limit, 500, 500)),
                now.get());

        assertThat(cache.refusal(List.of("a", "b"), List.of(other, limit))).singleElement()
                .satisfies(decision -> assertThat(decision.limit()).isEqualTo(5));
    }

    private static RateLimitDecision refused(LimitDefinition limit, long retryMillis, long resetMillis) {
        return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), false, 0,
                Duration.ofMillis(resetMillis), Duration.ofMillis(retryMillis), false);
    }

    private static LimitDefinition limit(long limit, long cost, boolean cacheRefusals) {
        return new LimitDefinition("l", limit, 1000, Algorithm.FIXED_WINDOW, FailureMode.DEFAULT, cost, List.of(), false,
                0, Scope.TENANT, null, TenantSource.DEFAULT, null, List.of(), cacheRefusals);
    }

    private static long millis(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }
}
