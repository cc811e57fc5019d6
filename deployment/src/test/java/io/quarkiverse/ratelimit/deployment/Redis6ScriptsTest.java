package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Redis 6 has no functions: decisions run as scripts (EVALSHA), exact under concurrency for every algorithm, and a
 * flushed script cache is recovered as before.
 */
class Redis6ScriptsTest {

    static final TestRedis REDIS = TestRedis.redis6("redis6");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class, DecisionsInFlight.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri());

    @Inject
    RateLimiter limiter;

    @Inject
    ScriptRunner scripts;

    @AfterAll
    static void stop() {
        REDIS.close();
    }

    @Test
    void everyAlgorithmIsExactAsAScript() {
        assertThat(REDIS.command("INFO", "server").toString()).contains("redis_version:6.");
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> scripts.functionLibrary().startsWith("none:"));
        for (Algorithm algorithm : Algorithm.values()) {
            RateLimit limit = algorithm == Algorithm.CALENDAR_WINDOW
                    ? RateLimit.of("redis6-" + algorithm, 50, CalendarPeriod.DAY, ZoneId.of("UTC"))
                    : RateLimit.of("redis6-" + algorithm, 50, Duration.ofHours(1)).algorithm(algorithm);
            assertThat(admitted(limit, UUID.randomUUID().toString(), 200)).as(algorithm.name()).isEqualTo(50);
        }
    }

    @Test
    void aFlushedScriptCacheIsRecovered() {
        RateLimit limit = RateLimit.of("redis6-flush", 30, Duration.ofHours(1));
        String tenant = UUID.randomUUID().toString();
        long recoveriesBefore = scripts.noScriptRecoveries();
        assertThat(REDIS.command("SCRIPT", "FLUSH")).isEqualTo("OK");

        assertThat(admitted(limit, tenant, 100)).isEqualTo(30);
        assertThat(scripts.noScriptRecoveries()).isGreaterThan(recoveriesBefore);
    }

    private int admitted(RateLimit limit, String tenant, int calls) {
        List<RateLimitDecision> decisions = DecisionsInFlight.decide(limiter, limit, tenant, calls);
        assertThat(decisions).noneMatch(RateLimitDecision::degraded);
        return (int) decisions.stream().filter(RateLimitDecision::allowed).count();
    }
}
