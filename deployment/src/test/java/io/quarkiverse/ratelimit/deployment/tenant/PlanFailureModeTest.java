package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A plan chooses its failure mode: with Redis killed, the enterprise plan's tenant is admitted (fail-open) while the
 * free tier's is refused with 503 (fail-closed), one policy for both; Redis back, both are decided by Redis again,
 * exactly to their plan's limit.
 */
class PlanFailureModeTest {

    static final TestRedis REDIS = TestRedis.named("plan-failure-mode");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Labels.class, TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.redis.health.enabled", "false")
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.limit", "5")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.window", "1h")
            .overrideConfigKey("quarkus.rate-limit.plans.enterprise.labels.limit", "10")
            .overrideConfigKey("quarkus.rate-limit.plans.enterprise.labels.failure-mode", "fail-open")
            .overrideConfigKey("quarkus.rate-limit.plans.free.labels.limit", "3")
            .overrideConfigKey("quarkus.rate-limit.plans.free.labels.failure-mode", "fail-closed")
            .overrideConfigKey("quarkus.rate-limit.tenants.acme.plan", "enterprise")
            .overrideConfigKey("quarkus.rate-limit.tenants.tiny-shop.plan", "free");

    @Path("/labels")
    public static class Labels {

        @GET
        @RateLimited(policy = "labels")
        public String labels() {
            return "label";
        }
    }

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    void theEnterprisePlanFailsOpenWhileTheFreeTierFailsClosed() {
        REDIS.kill();
        assertThat(statuses("acme", 12)).as("enterprise: fail-open, beyond its limit too").containsOnly(200);
        assertThat(statuses("tiny-shop", 4)).as("free: fail-closed").containsOnly(503);

        REDIS.restart();
        Awaitility.await("decided by Redis again").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> statuses("tiny-shop", 1).get(0) == 200);
        assertThat(statuses("tiny-shop", 3)).as("the free plan's 3, one used").containsExactly(200, 200, 429);
        assertThat(statuses("acme", 11)).as("the enterprise plan's 10, exactly").filteredOn(status -> status == 200)
                .hasSize(10);
    }

    private static List<Integer> statuses(String tenant, int calls) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            statuses.add(given().header("X-Tenant-Id", tenant).get("/labels").statusCode());
        }
        return statuses;
    }
}
