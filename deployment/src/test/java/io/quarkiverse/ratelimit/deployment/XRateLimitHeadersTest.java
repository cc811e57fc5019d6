package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.rate-limit.headers.style=x-rate-limit}: the {@code X-RateLimit-*} headers of the call's limit with the
 * least left, instead of the IETF fields, on admitted and refused calls alike.
 */
class XRateLimitHeadersTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.headers.style", "x-rate-limit");

    @Path("/orders")
    public static class Orders {

        @GET
        @RateLimited(limit = 2, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        @RateLimited(limit = 100, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
        public String get() {
            return "ok";
        }
    }

    @Test
    void theLimitWithTheLeastLeftIsShownByTheXRateLimitNames() {
        String tenant = UUID.randomUUID().toString();
        given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(200)
                .header("X-RateLimit-Limit", "2").header("X-RateLimit-Remaining", "1")
                .header("X-RateLimit-Reset", notNullValue()).header("RateLimit", nullValue());
        given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(200)
                .header("X-RateLimit-Remaining", "0");
        given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(429)
                .header("X-RateLimit-Limit", "2").header("X-RateLimit-Remaining", "0")
                .header("Retry-After", notNullValue()).header("RateLimit-Policy", nullValue());
    }
}
