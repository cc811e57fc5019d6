package io.quarkiverse.ratelimit.runtime.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

class RefusalCacheTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicBoolean live = new AtomicBoolean(true);
    private final RefusalCache cache = new RefusalCache(100, now::get, live::get);
    private final LimitDefinition limit = limit(5, 1, true);

    @Test
    void repeatsARefusalUntilItsRetryTimeCountedFromWhenTheCallWasSent() {
        long sent = now.get();
        long stamp = cache.stamp(List.of("k"));
        now.addAndGet(millis(3)); // the reply took 3 ms
        cache.remember(List.of("k"), List.of(limit), List.of(refused(limit, 500, 800)), sent, stamp);

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
        remember(List.of("k"), List.of(limit(5, 2, true)), refused(limit, 500, 500));

        assertThat(cache.refusal(List.of("k"), List.of(limit(5, 1, true)))).isNull();
        assertThat(cache.refusal(List.of("k"), List.of(limit(6, 2, true)))).isNull();
        assertThat(cache.refusal(List.of("k"), List.of(limit(5, 3, true)))).hasSize(1);
    }

    @Test
    void holdsNothingForALimitThatOptsOutOrAnAdmissionOrACallThatCanNeverFit() {
        LimitDefinition optedOut = limit(5, 1, false);
        remember(List.of("a", "b", "c"), List.of(optedOut, limit, limit), refused(optedOut, 500, 500),
                new RateLimitDecision("l", 5, Duration.ofSeconds(1), true, 2, Duration.ofSeconds(1), null, false),
                new RateLimitDecision("l", 5, Duration.ofSeconds(1), false, 0, Duration.ofSeconds(1), null, false));

        assertThat(cache.size()).isZero();
    }

    @Test
    void aForgottenKeyGoesToRedisAgain() {
        remember(List.of("k"), List.of(limit), refused(limit, 500, 500));
        cache.forget(List.of("k"));

        assertThat(cache.refusal(List.of("k"), List.of(limit))).isNull();
    }

    @Test
    void forgettingEverythingForgetsEveryKey() {
        remember(List.of("a"), List.of(limit), refused(limit, 500, 500));
        remember(List.of("b"), List.of(limit), refused(limit, 500, 500));
        cache.forgetAll();

        assertThat(cache.refusal(List.of("a"), List.of(limit))).isNull();
        assertThat(cache.refusal(List.of("b"), List.of(limit))).isNull();
    }

    @Test
    void aRefusalWhoseCallCrossedAnInvalidationIsNotHeld() {
        long sent = now.get();
        long stamp = cache.stamp(List.of("k"));
        cache.forget(List.of("k")); // a refund landed while the call was in flight; its reply may predate it
        cache.remember(List.of("k"), List.of(limit), List.of(refused(limit, 500, 500)), sent, stamp);

        assertThat(cache.refusal(List.of("k"), List.of(limit))).isNull();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aRefusalWhoseCallCrossedForgettingEverythingIsNotHeld() {
        long stamp = cache.stamp(List.of("k"));
        cache.forgetAll();
        cache.remember(List.of("k"), List.of(limit), List.of(refused(limit, 500, 500)), now.get(), stamp);

        assertThat(cache.size()).isZero();
    }

    @Test
    void answersNothingWhileInvalidationsAreNotHeard() {
        remember(List.of("k"), List.of(limit), refused(limit, 500, 500));
        live.set(false);

        assertThat(cache.refusal(List.of("k"), List.of(limit))).isNull();
        live.set(true);
        assertThat(cache.refusal(List.of("k"), List.of(limit))).hasSize(1);
    }

    @Test
    void refusesACallWithEveryLimitsDecisionAsRedisGaveThem() {
        LimitDefinition other = limit(100, 1, true);
        remember(List.of("a", "b"), List.of(other, limit),
                new RateLimitDecision("l", 100, Duration.ofSeconds(1), true, 50, Duration.ofSeconds(1),
                        Duration.ZERO, false),
                refused(limit, 500, 500));

        assertThat(cache.refusal(List.of("a", "b"), List.of(other, limit))).satisfiesExactly(
                admitting -> {
                    assertThat(admitting.allowed()).isTrue();
                    assertThat(admitting.limit()).isEqualTo(100);
                    assertThat(admitting.remaining()).isEqualTo(50);
                },
                refusing -> {
                    assertThat(refusing.allowed()).isFalse();
                    assertThat(refusing.limit()).isEqualTo(5);
                });
    }

    @Test
    void aCallWithOtherLimitsOnTheSameKeyGoesToRedis() {
        LimitDefinition other = limit(100, 1, true);
        remember(List.of("a", "b"), List.of(other, limit),
                new RateLimitDecision("l", 100, Duration.ofSeconds(1), true, 50, Duration.ofSeconds(1),
                        Duration.ZERO, false),
                refused(limit, 500, 500));

        assertThat(cache.refusal(List.of("b"), List.of(limit))).isNull();
    }

    private void remember(List<String> keys, List<LimitDefinition> limits, RateLimitDecision... decisions) {
        cache.remember(keys, limits, List.of(decisions), now.get(), cache.stamp(keys));
    }

    private static RateLimitDecision refused(LimitDefinition limit, long retryMillis, long resetMillis) {
        return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), false, 0,
                Duration.ofMillis(resetMillis), Duration.ofMillis(retryMillis), false);
    }

    private static LimitDefinition limit(long limit, long cost, boolean cacheRefusals) {
        return LimitDefinition.builder("l", limit, 1000).algorithm(Algorithm.FIXED_WINDOW).cost(cost)
                .cacheRefusals(cacheRefusals).build();
    }

    private static long millis(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }
}
