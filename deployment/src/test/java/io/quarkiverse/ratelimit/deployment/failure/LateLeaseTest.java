package io.quarkiverse.ratelimit.deployment.failure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.ConcurrencyLimit;
import io.quarkiverse.ratelimit.ConcurrencySlot;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A slot requested while Redis is silent, when the failure mode has already decided the call, is given up: the request
 * still runs when Redis wakes up, and the slot it takes, held by nobody, would count against the tenant until its lease
 * ends. Whichever runs first, the request or the cancellation sent when the call was given up, no slot is left held.
 */
class LateLeaseTest {

    static final TestRedis REDIS = TestRedis.named("late-lease");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.rate-limit.decision-timeout", "300ms");

    static final ConcurrencyLimit EXPORTS = ConcurrencyLimit.of("exports", 1).lease(Duration.ofHours(1))
            .failureMode(FailureMode.FAIL_OPEN);

    @Inject
    RateLimiter limiter;

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    void aSlotRequestedWhileRedisWasSilentIsGivenUp() {
        String key = "rate-limit:{late}:exports:cl";
        REDIS.pause();
        ConcurrencySlot slot;
        try {
            slot = limiter.acquireSlot(EXPORTS, "late").await().atMost(Duration.ofSeconds(5)); // fail-open: no lease
        } finally {
            REDIS.resume();
        }
        slot.release().await().atMost(Duration.ofSeconds(5));
        // the request reached Redis when it woke up; its slot, if it took one, was given up
        Awaitility.await("no lease held by nobody").atMost(Duration.ofSeconds(5))
                .until(() -> ((Long) REDIS.command("ZCARD", key)) == 0);
        ConcurrencySlot next = limiter.acquireSlot(EXPORTS, "late").await().atMost(Duration.ofSeconds(5));
        assertThat(REDIS.command("ZCARD", key)).isEqualTo(1L);
        next.release().await().atMost(Duration.ofSeconds(5));
    }
}
