package io.quarkiverse.ratelimit.deployment.usage;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The usage endpoint ({@code quarkus.rate-limit.usage.enabled}): the calling tenant's own limits, found as a limited
 * call finds its tenant, read without counting; a tenant without a name, a blocked one and one reading too often are
 * refused with a problem body, never a 5xx.
 */
class TenantUsageEndpointTest {

    static final String ORDERS = "Orders.list";

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.usage.enabled", "true")
            .overrideConfigKey("quarkus.rate-limit.usage.limit", "5")
            .overrideConfigKey("quarkus.rate-limit.usage.window", "1h")
            .overrideConfigKey("quarkus.rate-limit.blocked-tenants", "abuser");

    @Path("/orders")
    public static class Orders {

        @GET
        @RateLimited(limit = 10, window = "1h")
        public String list() {
            return "orders";
        }
    }

    @Test
    void answersTheTenantsLimitsAndCountsNothing() {
        String tenant = tenant();
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(200);
        }
        for (int read = 1; read <= 3; read++) {
            given().header("X-Tenant-Id", tenant).get("/rate-limit/usage").then().statusCode(200)
                    .contentType("application/json")
                    .header("RateLimit-Policy", containsString("rate-limit-usage"))
                    .body("find { it.name == '" + ORDERS + "' }.limit", equalTo(10))
                    .body("find { it.name == '" + ORDERS + "' }.windowSeconds", equalTo(3600))
                    .body("find { it.name == '" + ORDERS + "' }.remaining", equalTo(7))
                    .body("find { it.name == '" + ORDERS + "' }.resetSeconds", notNullValue())
                    .body("find { it.name == '" + ORDERS + "' }.inDebt", equalTo(false))
                    .body("find { it.name == '" + ORDERS + "' }.mode", equalTo("enforce"));
        }
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted += given().header("X-Tenant-Id", tenant).get("/orders").statusCode() == 200 ? 1 : 0;
        }
        assertThat(admitted).as("three reads of the usage took nothing").isEqualTo(7);
    }

    @Test
    void readingTooOftenIsRefusedWithRetryAfter() {
        String tenant = tenant();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/rate-limit/usage").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).get("/rate-limit/usage").then().statusCode(429)
                .contentType("application/problem+json").header("Retry-After", notNullValue());
        given().header("X-Tenant-Id", tenant()).get("/rate-limit/usage").then().statusCode(200); // another tenant's
    }

    @Test
    void aCallWithoutATenantABlockedTenantAndAWriteAreRefused() {
        given().get("/rate-limit/usage").then().statusCode(400).contentType("application/problem+json")
                .body("detail", containsString("X-Tenant-Id"));
        given().header("X-Tenant-Id", "abuser").get("/rate-limit/usage").then().statusCode(403)
                .contentType("application/problem+json");
        given().header("X-Tenant-Id", tenant()).post("/rate-limit/usage").then().statusCode(405)
                .header("Allow", "GET");
    }

    private static String tenant() {
        return "usage-" + UUID.randomUUID();
    }
}
