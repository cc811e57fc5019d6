package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;

/**
 * Decisions in flight share a few long-lived connections (pipelined), not one pooled connection each; a connection that
 * Redis closes is replaced by the next decision.
 */
class PipelinedDecisionsTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(DecisionsInFlight.class))
            .overrideConfigKey("quarkus.rate-limit.pipelined-connections", "2")
            // the run-time limits' refresh (a GET each second) travels on the decisions' connections: it would be the
            // last command of the one the decisions used if it came between them and the CLIENT LIST below
            .overrideConfigKey("quarkus.rate-limit.run-time-limits.refresh-interval", "1h");

    static final RateLimit LIMIT = RateLimit.of("pipelined", 150, Duration.ofHours(1));

    @Inject
    RateLimiter limiter;

    @Inject
    Redis redis;

    @Test
    void hundredsOfDecisionsInFlightTravelOnTheConfiguredConnections() {
        String tenant = UUID.randomUUID().toString();
        List<RateLimitDecision> decisions = DecisionsInFlight.decide(limiter, LIMIT, tenant, 300);

        assertThat(decisions).filteredOn(RateLimitDecision::allowed).hasSize(150);
        assertThat(decisions).noneMatch(RateLimitDecision::degraded);
        assertThat(clientsThatRanScripts()).isBetween(1L, 2L);
    }

    @Test
    void aConnectionRedisClosesIsReplaced() {
        String tenant = UUID.randomUUID().toString();
        assertThat(limiter.tryAcquireAndAwait(LIMIT, tenant).degraded()).isFalse();
        redis.send(Request.cmd(Command.CLIENT).arg("KILL").arg("TYPE").arg("normal").arg("SKIPME").arg("yes"))
                .await().indefinitely();

        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> !limiter.tryAcquireAndAwait(LIMIT, tenant).degraded());
    }

    /** Connections whose last command was a decision (a function or script call). */
    private long clientsThatRanScripts() {
        String clients = redis.send(Request.cmd(Command.CLIENT).arg("LIST")).await().indefinitely().toString();
        return clients.lines().filter(line -> line.contains("cmd=fcall ") || line.contains("cmd=evalsha ")
                || line.contains("cmd=eval ")).count();
    }
}
