package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.ConcurrencyLimit;
import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;
import io.quarkiverse.ratelimit.ConcurrencySlot;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;

/** The RateLimiter bean, usable from any code: same atomic scripts, tenants given by the caller. */
class ProgrammaticRateLimiterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest();

    static final RateLimit EMAILS = RateLimit.of("emails", 2, Duration.ofHours(1));

    @Inject
    RateLimiter limiter;

    @Test
    void admitsTheLimitThenRefusesWithoutConsuming() {
        String tenant = tenant();
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant).allowed()).isTrue();
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant).remaining()).isZero();
        RateLimitDecision refused = limiter.tryAcquireAndAwait(EMAILS, tenant);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfter()).isPositive();
        assertThat(refused.degraded()).isFalse();
    }

    @Test
    void statusReadsWithoutConsumingAndResetRestoresTheLimit() {
        String tenant = tenant();
        limiter.tryAcquireAndAwait(EMAILS, tenant);
        assertThat(limiter.status(EMAILS, tenant).await().indefinitely().remaining()).isEqualTo(1);
        assertThat(limiter.status(EMAILS, tenant).await().indefinitely().remaining()).isEqualTo(1);
        limiter.reset(EMAILS, tenant).await().indefinitely();
        assertThat(limiter.status(EMAILS, tenant).await().indefinitely().remaining()).isEqualTo(2);
    }

    @Test
    void everyOperationHasItsBlockingFormBesideItsUni() {
        RateLimit credits = RateLimit.of("blocking-credits", 10, Duration.ofHours(1)).algorithm(Algorithm.TOKEN_BUCKET)
                .maxWait(Duration.ofSeconds(1));
        RateLimit daily = RateLimit.of("blocking-daily", 100, Duration.ofDays(1)).algorithm(Algorithm.GCRA)
                .maxWait(Duration.ofSeconds(1));
        String tenant = tenant();
        assertThat(limiter.tryAcquireAndAwait(credits, tenant, 4).remaining()).isEqualTo(6);
        assertThat(limiter.acquireAndAwait(credits, tenant, 2).remaining()).isEqualTo(4);
        assertThat(limiter.tryAcquireAllAndAwait(List.of(credits, daily), tenant)).allMatch(RateLimitDecision::allowed);
        assertThat(limiter.acquireAllAndAwait(List.of(credits, daily), tenant)).allMatch(RateLimitDecision::allowed);
        assertThat(limiter.statusAndAwait(credits, tenant).remaining()).isEqualTo(2);
        limiter.refundAndAwait(credits, tenant, 3);
        assertThat(limiter.statusAndAwait(credits, tenant).remaining()).isEqualTo(5);
        limiter.resetAndAwait(credits, tenant);
        assertThat(limiter.statusAndAwait(credits, tenant).remaining()).isEqualTo(10);

        ConcurrencyLimit exports = ConcurrencyLimit.of("blocking-exports", 1);
        ConcurrencySlot slot = limiter.acquireSlotAndAwait(exports, tenant);
        assertThatThrownBy(() -> limiter.acquireSlotAndAwait(exports, tenant))
                .isInstanceOf(ConcurrencyLimitExceededException.class);
        slot.releaseAndAwait();
        limiter.acquireSlotAndAwait(exports, tenant).releaseAndAwait();
    }

    @Test
    void aCostTakesThatManyUnits() {
        RateLimit credits = RateLimit.of("credits", 10, Duration.ofHours(1)).algorithm(Algorithm.TOKEN_BUCKET);
        String tenant = tenant();
        assertThat(limiter.tryAcquire(credits, tenant, 7).await().indefinitely().remaining()).isEqualTo(3);
        assertThat(limiter.tryAcquire(credits, tenant, 4).await().indefinitely().allowed()).isFalse();
        assertThat(limiter.tryAcquire(credits, tenant, 3).await().indefinitely().allowed()).isTrue();
    }

    @Test
    void severalLimitsAreAcquiredAllOrNothing() {
        RateLimit loose = RateLimit.of("loose", 10, Duration.ofHours(1)).algorithm(Algorithm.FIXED_WINDOW);
        RateLimit tight = RateLimit.of("tight", 1, Duration.ofHours(1)).algorithm(Algorithm.GCRA);
        String tenant = tenant();
        assertThat(limiter.tryAcquireAll(List.of(loose, tight), tenant).await().indefinitely())
                .allMatch(RateLimitDecision::allowed);
        List<RateLimitDecision> refused = limiter.tryAcquireAll(List.of(loose, tight), tenant).await().indefinitely();
        assertThat(refused).extracting(RateLimitDecision::allowed).containsExactly(true, false);
        assertThat(limiter.status(loose, tenant).await().indefinitely().remaining()).isEqualTo(9);
    }

    @Test
    void exactUnder200ConcurrentBlockingCallers() throws Exception {
        RateLimit quota = RateLimit.of("quota", 25, Duration.ofDays(1));
        String tenant = tenant();
        ExecutorService threads = Executors.newFixedThreadPool(50);
        try {
            List<Callable<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                calls.add(() -> limiter.tryAcquireAndAwait(quota, tenant).allowed());
            }
            int admitted = 0;
            for (Future<Boolean> call : threads.invokeAll(calls)) {
                admitted += call.get() ? 1 : 0;
            }
            assertThat(admitted).isEqualTo(25);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void concurrencySlotsAreHeldUntilReleased() {
        ConcurrencyLimit exports = ConcurrencyLimit.of("exports", 2).lease(Duration.ofMinutes(5));
        String tenant = tenant();
        ConcurrencySlot first = limiter.acquireSlot(exports, tenant).await().indefinitely();
        limiter.acquireSlot(exports, tenant).await().indefinitely();
        assertThatThrownBy(() -> limiter.acquireSlot(exports, tenant).await().indefinitely())
                .isInstanceOf(ConcurrencyLimitExceededException.class)
                .hasMessage("Concurrency limit 'exports' of 2 calls in flight reached");
        first.release().await().indefinitely();
        first.release().await().indefinitely();
        assertThat(limiter.acquireSlot(exports, tenant).await().indefinitely()).isNotNull();
        assertThatThrownBy(() -> limiter.acquireSlot(exports, tenant).await().indefinitely())
                .as("releasing twice freed one slot only").isInstanceOf(ConcurrencyLimitExceededException.class);
    }

    @Test
    void invalidLimitsAndCostsAreRefusedWithAClearMessage() {
        assertThatThrownBy(() -> RateLimit.of("no spaces", 1, Duration.ofSeconds(1)))
                .hasMessageContaining("a name is 1 to 100 letters");
        assertThatThrownBy(() -> RateLimit.of("zero", 0, Duration.ofSeconds(1)))
                .hasMessage("Rate limit 'zero' has limit 0; it must be greater than zero and at most 1000000000000");
        assertThatThrownBy(() -> RateLimit.of("audit", 20_000, Duration.ofMinutes(1))
                .algorithm(Algorithm.SLIDING_WINDOW_LOG))
                .hasMessageStartingWith("Rate limit 'audit' has limit 20000; the sliding window log keeps an entry");
        assertThatThrownBy(() -> limiter.tryAcquire(EMAILS, tenant(), -1))
                .hasMessage("A call of 'emails' costs 0 or more units, not -1");
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant(), 3).retryAfter())
                .as("a cost above the limit is refused: it never fits (CostBoundsTest)").isNull();
    }

    private static String tenant() {
        return "programmatic-" + UUID.randomUUID();
    }
}
