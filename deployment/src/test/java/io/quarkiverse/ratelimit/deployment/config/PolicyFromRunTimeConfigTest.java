package io.quarkiverse.ratelimit.deployment.config;

import static io.restassured.RestAssured.given;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A policy whose values exist only at start-up (in production: environment variables, the Kubernetes way) builds and
 * runs: the build checks what the annotation says, start-up what configuration says.
 */
class PolicyFromRunTimeConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Labels.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            // not visible to the build, as QUARKUS_RATE_LIMIT_POLICIES_LABELS_LIMIT set in a container would not be
            .overrideRuntimeConfigKey("quarkus.rate-limit.policies.labels.limit", "2")
            .overrideRuntimeConfigKey("quarkus.rate-limit.policies.labels.window", "1h");

    @Path("/labels")
    public static class Labels {

        @GET
        @RateLimited(policy = "labels")
        public String label() {
            return "label";
        }
    }

    @Test
    void theStartUpValuesLimitTheCalls() {
        for (int i = 0; i < 2; i++) {
            given().header("X-Tenant-Id", "acme").get("/labels").then().statusCode(200)
                    .header("RateLimit-Policy", "\"Labels.label\";q=2;w=3600");
        }
        given().header("X-Tenant-Id", "acme").get("/labels").then().statusCode(429);
    }
}
