package io.quarkiverse.ratelimit.deployment.observe;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.time.Duration;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The readiness check {@code rate-limit} with Quarkus's Redis check turned off, as the docs advise when Redis serves
 * only the rate limiter: Redis killed leaves the instance ready (each limit is decided by its failure mode) and the
 * check's data says why; Redis back, the data says so too. No start-up advice: the application has chosen.
 */
class ReadinessTest {

    static final TestRedis REDIS = TestRedis.named("readiness");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(LimitedResource.class, TestRedis.class, Readiness.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.redis.health.enabled", "false")
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .setLogRecordPredicate(record -> record.getMessage().contains("quarkus.redis.health.enabled"))
            .assertLogRecords(records -> assertThat(records).as("advice about Quarkus's Redis check").isEmpty());

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    void aDeadRedisLeavesTheInstanceReadyAndSaysSo() {
        Readiness.check().statusCode(200)
                .body("status", equalTo("UP"))
                .body(Readiness.RATE_LIMIT + ".status", equalTo("UP"))
                .body(Readiness.RATE_LIMIT + ".data.redis", equalTo("reachable"))
                .body(Readiness.RATE_LIMIT + ".data.circuit", equalTo("closed"))
                .body(Readiness.RATE_LIMIT + ".data.decided-by", equalTo("redis"))
                .body(Readiness.RATE_LIMIT + ".data.function-library", startsWith("loaded: quarkus_rate_limit_"))
                .body(Readiness.RATE_LIMIT + ".data.scripts-used", equalTo(Readiness.SCRIPTS_OF_ONE_ALGORITHM))
                .body(Readiness.RATE_LIMIT + ".data.scripts-preloaded", equalTo(Readiness.SCRIPTS_OF_ONE_ALGORITHM))
                .body(Readiness.RATE_LIMIT + ".data.decisions-without-redis", equalTo(0));

        REDIS.kill();
        given().header("X-Tenant-Id", UUID.randomUUID().toString()).get("/limited").then().statusCode(200);
        Readiness.check().statusCode(200)
                .body("status", equalTo("UP"))
                .body(Readiness.RATE_LIMIT + ".status", equalTo("UP"))
                .body(Readiness.RATE_LIMIT + ".data.redis", startsWith("unreachable: "))
                .body(Readiness.RATE_LIMIT + ".data.decided-by", equalTo("failure modes"))
                .body(Readiness.RATE_LIMIT + ".data.decisions-without-redis", equalTo(1));

        REDIS.restart();
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> Readiness.check().statusCode(200)
                .body(Readiness.RATE_LIMIT + ".data.redis", equalTo("reachable")));
    }
}
