package io.quarkiverse.ratelimit.deployment.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.deployment.DecisionsInFlight;
import io.quarkiverse.ratelimit.deployment.RedisCommandStats;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.redis.client.Redis;

/**
 * Durable decisions on a master with one replica: a decision is answered once the replica acknowledged its write, one
 * {@code WAIT} acknowledging a whole group of decisions in flight; while the replica does not acknowledge, the limit's
 * failure mode decides.
 * <p>
 * Real time is this test's subject (the decision that no replica acknowledged fails within its wait, as a caller times it): it
 * reads the wall clock on purpose.
 */
class DurableDecisionsTest {

    static final TestRedis MASTER = TestRedis.named("durable-master");
    static final TestRedis REPLICA = TestRedis.replicaOf("durable-replica", MASTER);

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class, RedisCommandStats.class, DecisionsInFlight.class))
            .overrideConfigKey("quarkus.redis.hosts", MASTER.uri())
            .overrideConfigKey("quarkus.rate-limit.durable.replicas", "1")
            .overrideConfigKey("quarkus.rate-limit.durable.timeout", "100ms")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.open-duration", "1s");

    static final RateLimit LIMIT = RateLimit.of("durable", 150, Duration.ofHours(1))
            .failureMode(FailureMode.FAIL_CLOSED);

    @Inject
    RateLimiter limiter;

    @Inject
    Redis redis;

    @AfterAll
    static void stopRedis() {
        REPLICA.close();
        MASTER.close();
    }

    @Test
    void decisionsInFlightAreExactAndAcknowledgedInGroups() {
        awaitDecidedByRedis();
        String tenant = UUID.randomUUID().toString();
        long waitsBefore = RedisCommandStats.calls(redis, "wait");

        List<RateLimitDecision> decisions = DecisionsInFlight.decide(limiter, LIMIT, tenant, 300);

        assertThat(decisions).filteredOn(RateLimitDecision::allowed).hasSize(150);
        assertThat(decisions).noneMatch(RateLimitDecision::degraded);
        // every decision was answered after a WAIT that followed it, and the replica holds what they wrote
        assertThat(REPLICA.command("DBSIZE")).isEqualTo(MASTER.command("DBSIZE"));
        long waits = RedisCommandStats.calls(redis, "wait") - waitsBefore;
        assertThat(waits).as("WAITs for 300 decisions in flight").isBetween(1L, 150L);
    }

    @Test
    void aReplicaThatDoesNotAcknowledgeSendsDecisionsToTheFailureMode() {
        awaitDecidedByRedis();
        String tenant = UUID.randomUUID().toString();
        REPLICA.pause();
        try {
            long started = System.nanoTime();
            assertThatThrownBy(() -> limiter.tryAcquireAndAwait(LIMIT, tenant))
                    .as("fail-closed")
                    .isInstanceOf(RateLimiterUnavailableException.class)
                    .hasMessageContaining("0 of 1 replicas acknowledged the decision's write within 100 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        } finally {
            REPLICA.resume();
        }
        awaitDecidedByRedis();
    }

    /** Once the replica is in sync (and the breaker closed again), Redis decides; until then fail-closed refuses. */
    private void awaitDecidedByRedis() {
        String tenant = UUID.randomUUID().toString();
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsInstanceOf(RateLimiterUnavailableException.class)
                .until(() -> !limiter.tryAcquireAndAwait(LIMIT, tenant).degraded());
    }
}
