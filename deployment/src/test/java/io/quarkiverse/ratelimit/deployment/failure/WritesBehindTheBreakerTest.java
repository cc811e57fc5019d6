package io.quarkiverse.ratelimit.deployment.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.Reservation;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkiverse.ratelimit.runtime.resilience.GuardedRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Refunds, settlements, resets and an operator's look at a limit go the decisions' guarded way: with Redis hung
 * (SIGSTOP), the breaker that opened on the decisions fails them at once, where each waited out the decision timeout
 * before (a reset and a look had no timeout at all), holding a worker thread (or the caller's response) that long
 * during an outage; and they count for the breaker like decisions.
 * <p>
 * Real time is this test's subject ("at once" is measured against the decision timeout): it reads the wall clock on purpose.
 */
class WritesBehindTheBreakerTest {

    static final TestRedis REDIS = TestRedis.named("writes-behind-the-breaker");
    static final Duration DECISION_TIMEOUT = Duration.ofSeconds(3);

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.rate-limit.decision-timeout", DECISION_TIMEOUT.toMillis() + "ms")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.failure-threshold", "1")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.open-duration", "1m");

    static final RateLimit TOKENS = RateLimit.of("writes-tokens", 1000, Duration.ofHours(1))
            .failureMode(FailureMode.FAIL_OPEN);

    @Inject
    RateLimiter limiter;

    @Inject
    GuardedRedis guarded;

    @Inject
    RateLimitAdmin admin;

    @AfterAll
    static void stop() {
        REDIS.resume();
        REDIS.close();
    }

    @Test
    void whileTheBreakerIsOpenRefundsSettlementsResetsAndLooksFailAtOnce() {
        String tenant = "writes-" + UUID.randomUUID();
        Reservation reservation = limiter.reserveAndAwait(TOKENS, tenant, 100);
        assertThat(reservation.admitted()).isTrue();

        REDIS.pause();
        assertThat(limiter.tryAcquireAndAwait(TOKENS, tenant).degraded()).as("decided by the failure mode").isTrue();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> guarded.circuitState() == CircuitBreakerTransition.State.OPEN);

        long started = System.nanoTime();
        assertThatThrownBy(() -> limiter.refundAndAwait(TOKENS, tenant, 10))
                .isInstanceOf(RateLimiterUnavailableException.class);
        assertThatThrownBy(() -> reservation.settleAndAwait(40)).isInstanceOf(RateLimiterUnavailableException.class);
        assertThatThrownBy(() -> limiter.resetAndAwait(TOKENS, tenant)).isInstanceOf(RateLimiterUnavailableException.class);
        assertThatThrownBy(() -> admin.status(tenant, "writes-tokens"))
                .as("an operator's look is Redis's or none: never a failure mode's")
                .isInstanceOf(RateLimiterUnavailableException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("not one decision timeout (3 s) for each")
                .isLessThan(DECISION_TIMEOUT);
    }
}
