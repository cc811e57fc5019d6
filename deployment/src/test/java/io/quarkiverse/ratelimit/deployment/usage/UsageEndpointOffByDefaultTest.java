package io.quarkiverse.ratelimit.deployment.usage;

import static io.restassured.RestAssured.given;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/** Without {@code quarkus.rate-limit.usage.enabled}, nothing answers on the usage endpoint's path. */
class UsageEndpointOffByDefaultTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/orders")
    public static class Orders {

        @GET
        @RateLimited(limit = 10, window = "1h")
        public String list() {
            return "orders";
        }
    }

    @Test
    void theUsagePathIsNotServed() {
        given().header("X-Tenant-Id", "acme").get("/rate-limit/usage").then().statusCode(404);
    }
}
