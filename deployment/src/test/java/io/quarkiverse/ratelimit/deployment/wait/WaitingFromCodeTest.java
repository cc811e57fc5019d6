package io.quarkiverse.ratelimit.deployment.wait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * {@link RateLimiter#acquire}: waits for a later slot within the limit's maxWait; a cancelled wait gives its slot
 * back; several limits wait for the slot all of them admit; {@code tryAcquire} never waits, and a refusal it left in
 * the refusal cache does not refuse a call that may wait.
 */
class WaitingFromCodeTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest();

    /** One call per second, none at once beyond it, waiting up to 5 s. */
    static final RateLimit CARRIER = RateLimit.of("carrier", 1, Duration.ofSeconds(1)).algorithm(Algorithm.GCRA)
            .burst(1).maxWait(Duration.ofSeconds(5));

    @Inject
    RateLimiter limiter;

    @Test
    void acquireReservesTheNextSlotsInTurn() {
        String tenant = tenant();
        assertThat(limiter.acquireAndAwait(CARRIER, tenant).waitTime()).isZero();
        RateLimitDecision second = limiter.acquireAndAwait(CARRIER, tenant);
        assertThat(second.allowed()).isTrue();
        assertThat(second.waits()).isTrue();
        assertThat(second.waitTime()).isBetween(Duration.ofMillis(1), Duration.ofSeconds(1));
        assertThat(limiter.tryAcquireAndAwait(CARRIER, tenant).allowed()).as("tryAcquire never waits").isFalse();
    }

    @Test
    void aCancelledWaitGivesItsSlotBack() {
        String tenant = tenant();
        limiter.acquireAndAwait(CARRIER, tenant);
        Cancellable waiting = limiter.acquire(CARRIER, tenant).subscribe().with(decision -> {
        });
        // the second call holds the slot 1 s ahead: nothing is left now, even for a look that takes nothing
        Awaitility.await().atMost(Duration.ofSeconds(2))
                .until(() -> !limiter.status(CARRIER, tenant).await().indefinitely().allowed());
        waiting.cancel();
        Awaitility.await("the cancelled call's slot given back").atMost(Duration.ofSeconds(2))
                .until(() -> limiter.status(CARRIER, tenant).await().indefinitely().allowed());
        RateLimitDecision third = limiter.acquire(CARRIER, tenant).await().indefinitely();
        assertThat(third.waitTime()).as("the cancelled call's slot, 1 s ahead at most, is the third call's")
                .isLessThanOrEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void severalLimitsWaitForTheSlotEveryOneAdmits() {
        String tenant = tenant();
        // slow rates, so that the time the test takes changes no count
        RateLimit perSecond = RateLimit.of("carrier-short", 10, Duration.ofMinutes(1)).algorithm(Algorithm.GCRA)
                .maxWait(Duration.ofSeconds(2));
        RateLimit perMinute = RateLimit.of("carrier-long", 2, Duration.ofHours(1))
                .algorithm(Algorithm.TOKEN_BUCKET);
        assertThat(limiter.acquireAll(List.of(perSecond, perMinute), tenant).await().indefinitely())
                .allMatch(RateLimitDecision::allowed);
        assertThat(limiter.acquireAll(List.of(perSecond, perMinute), tenant).await().indefinitely())
                .allMatch(RateLimitDecision::allowed);
        List<RateLimitDecision> third = limiter.acquireAll(List.of(perSecond, perMinute), tenant).await()
                .indefinitely();
        assertThat(third.get(1).allowed()).as("the long limit's next token is 30 min away, beyond 2 s").isFalse();
        assertThat(limiter.status(perSecond, tenant).await().indefinitely().remaining())
                .as("the refused call consumed nothing of the short limit").isEqualTo(8);
    }

    @Test
    void aRefusalHeldForTryAcquireDoesNotRefuseACallThatMayWait() {
        String tenant = tenant();
        limiter.tryAcquireAndAwait(CARRIER, tenant);
        assertThat(limiter.tryAcquireAndAwait(CARRIER, tenant).allowed()).isFalse(); // now held by the refusal cache
        RateLimitDecision waited = limiter.acquireAndAwait(CARRIER, tenant);
        assertThat(waited.allowed()).isTrue();
        assertThat(waited.waits()).isTrue();
    }

    @Test
    void aLimitThatCannotHoldALaterSlotCannotWait() {
        assertThatThrownBy(() -> RateLimit.of("window", 1, Duration.ofSeconds(1)).maxWait(Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only the token bucket and GCRA can hold a later slot");
        assertThatThrownBy(() -> RateLimit.of("gcra", 1, Duration.ofSeconds(1)).algorithm(Algorithm.GCRA)
                .maxWait(Duration.ofSeconds(1)).algorithm(Algorithm.FIXED_WINDOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxWait");
        assertThatThrownBy(() -> limiter.acquireAll(List.of(CARRIER, RateLimit.of("day", 10, Duration.ofDays(1))),
                tenant())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot wait");
    }

    private static String tenant() {
        return UUID.randomUUID().toString();
    }
}
