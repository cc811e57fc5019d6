package io.quarkiverse.ratelimit.deployment.observe;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/** {@code health.strict=true}: the instance leaves rotation while Redis does not answer, and comes back with it. */
class StrictReadinessTest {

    static final TestRedis REDIS = TestRedis.named("strict-readiness");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(LimitedResource.class, TestRedis.class, Readiness.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.redis.health.enabled", "false")
            .overrideConfigKey("quarkus.rate-limit.health.strict", "true");

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    void aDeadRedisTakesAStrictInstanceOutOfRotationUntilRedisIsBack() {
        Readiness.check().statusCode(200).body(Readiness.RATE_LIMIT + ".data.strict", equalTo(true));

        REDIS.kill();
        Readiness.check().statusCode(503)
                .body("status", equalTo("DOWN"))
                .body(Readiness.RATE_LIMIT + ".status", equalTo("DOWN"))
                .body(Readiness.RATE_LIMIT + ".data.redis", startsWith("unreachable: "));

        REDIS.restart();
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> Readiness.check().statusCode(200)
                .body(Readiness.RATE_LIMIT + ".status", equalTo("UP")));
    }
}
