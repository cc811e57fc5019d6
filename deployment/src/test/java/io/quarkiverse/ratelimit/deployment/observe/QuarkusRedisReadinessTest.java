package io.quarkiverse.ratelimit.deployment.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Why the docs advise turning Quarkus's Redis readiness check off when Redis serves only the rate limiter: left on (the
 * default), a dead Redis makes the whole instance unready although the rate limiter's own check is UP. The application
 * is told so once at start-up.
 */
class QuarkusRedisReadinessTest {

    static final TestRedis REDIS = TestRedis.named("quarkus-redis-readiness");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(LimitedResource.class, TestRedis.class, Readiness.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .setLogRecordPredicate(record -> record.getMessage().contains("quarkus.redis.health.enabled"))
            .assertLogRecords(records -> assertThat(records).as("advice about Quarkus's Redis check").hasSize(1));

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    void quarkusRedisCheckTakesTheInstanceOutWithRedis() {
        Readiness.check().statusCode(200);

        REDIS.kill();
        Readiness.check().statusCode(503)
                .body("checks.find { it.name == 'Redis connection health check' }.status", equalTo("DOWN"))
                .body(Readiness.RATE_LIMIT + ".status", equalTo("UP"));

        REDIS.restart();
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> Readiness.check().statusCode(200));
    }
}
