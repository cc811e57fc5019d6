package io.quarkiverse.ratelimit.deployment.wait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkiverse.ratelimit.deployment.failure.FaultyLink;
import io.quarkiverse.ratelimit.runtime.decide.SlotWaits;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A waiting call's wait counts from Redis's decision, not from when its reply was read: a reply slow to come back (held
 * 300 ms on its way, as a busy event loop or a slow link would hold it) does not send its call 300 ms after its slot,
 * where it would go together with the calls of the slots after it.
 * <p>
 * Real time is this test's subject (when a held reply's call goes, as the carrier would see it): it reads the wall clock on
 * purpose.
 */
class WaitFromRedisDecisionTest {

    static final TestRedis REDIS = TestRedis.named("wait-from-decision");
    static final FaultyLink LINK = FaultyLink.to("wait-from-decision", REDIS.uri());

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class, FaultyLink.class))
            .overrideConfigKey("quarkus.redis.hosts", LINK.uri())
            .overrideConfigKey("quarkus.rate-limit.decision-timeout", "3s");

    /**
     * Slots 500 ms apart, one at once; a timer of this test's busy machine that fires up to 100 ms late still lets its
     * call go (a later one would take the next slot, which is not what this test is about).
     */
    static final RateLimit CARRIER = RateLimit.of("slow-replies", 2, Duration.ofSeconds(1)).algorithm(Algorithm.GCRA)
            .burst(1).maxWait(Duration.ofSeconds(5)).lateSlotTolerance(Duration.ofMillis(100));

    @Inject
    RateLimiter limiter;

    @Inject
    SlotWaits waits;

    @AfterAll
    static void close() {
        LINK.heal();
        LINK.close();
    }

    @Test
    void aReplySlowToComeBackDoesNotDelayItsCall() throws Exception {
        String tenant = "slow-replies-" + UUID.randomUUID();
        assertThat(limiter.acquireAndAwait(CARRIER, tenant).allowed()).as("the burst of one, at once").isTrue();

        CompletableFuture<Long> second = wentAt(tenant);
        await("the second call waits for its slot: its reply came at once").atMost(Duration.ofSeconds(5))
                .until(() -> waits.waiting() == 1);
        LINK.delayReplies(Duration.ofMillis(300));
        CompletableFuture<Long> third = wentAt(tenant);

        Duration apart = Duration.ofNanos(third.get(5, TimeUnit.SECONDS) - second.get(5, TimeUnit.SECONDS));
        LINK.heal();
        // each call goes at its slot or up to the late-slot tolerance (100 ms) after it: the second's late timer
        // shortens the gap, the third's lengthens it; counted from the slow reply, the third would go 800 ms on
        assertThat(apart).as("the calls go at their slots, 500 ms apart in Redis (counted from the reply, 800 ms)")
                .isBetween(Duration.ofMillis(500 - 100), Duration.ofMillis(650));
    }

    /** When the call of {@code tenant} went (its slot came). */
    private CompletableFuture<Long> wentAt(String tenant) {
        return limiter.acquire(CARRIER, tenant).map(decision -> {
            assertThat(decision.allowed()).isTrue();
            return System.nanoTime();
        }).subscribeAsCompletionStage();
    }
}
