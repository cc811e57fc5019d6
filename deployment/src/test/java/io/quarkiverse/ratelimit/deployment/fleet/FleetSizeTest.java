package io.quarkiverse.ratelimit.deployment.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The fleet's size, known instead of configured: this instance announces itself in Redis and hears how many instances
 * share the limits; when Redis stops answering, the {@code local} failure mode allows this instance the limit divided by
 * the count it last heard, without {@code local-fallback.expected-instances}.
 */
class FleetSizeTest {

    static final TestRedis REDIS = TestRedis.named("fleet-size");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", "100ms")
            .overrideConfigKey("quarkus.rate-limit.decision-timeout", "300ms")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.failure-threshold", "1")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.open-duration", "1m");

    static final RateLimit SEARCH = RateLimit.of("fleet-search", 10, Duration.ofHours(1))
            .failureMode(FailureMode.LOCAL);

    @Inject
    FleetSize fleet;

    @Inject
    LimiterStatus status;

    @Inject
    RateLimiter limiter;

    @AfterAll
    static void stop() {
        REDIS.resume();
        REDIS.close();
    }

    @Test
    void withRedisGoneEachOfTheInstancesLastHeardAllowsItsShareOfTheLimit() {
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.live() == 1);
        // another instance announced itself (scored a minute ahead, so it stays live however slow this test runs)
        REDIS.command("ZADD", "rate-limit:{~fleet}", Long.toString(redisTimeMillis() + 60_000), "another-instance");
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.live() == 2);
        assertThat(status.snapshot(null)).containsEntry("live-instances", 2).containsEntry("local-fallback-instances",
                2);

        REDIS.pause();
        try {
            String tenant = "fleet-" + UUID.randomUUID();
            int admitted = 0;
            for (int i = 0; i < 10; i++) {
                RateLimitDecision decision = limiter.tryAcquireAndAwait(SEARCH, tenant);
                assertThat(decision.degraded()).as("decided by the failure mode").isTrue();
                admitted += decision.allowed() ? 1 : 0;
            }
            assertThat(admitted).as("10 shared by the 2 instances last heard").isEqualTo(5);
            assertThat(fleet.live()).as("the last count heard stands while Redis is away").isEqualTo(2);
        } finally {
            REDIS.resume();
        }
    }

    @SuppressWarnings("unchecked")
    private static long redisTimeMillis() {
        List<Object> time = (List<Object>) REDIS.command("TIME");
        return Long.parseLong(time.get(0).toString()) * 1000 + Long.parseLong(time.get(1).toString()) / 1000;
    }
}
