package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/** {@code quarkus.rate-limit.headers.enabled=false}: no limit's state in any response; a refusal keeps Retry-After. */
class HeadersOffTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Quiet.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.headers.enabled", "false");

    @Path("/quiet")
    public static class Quiet {

        @GET
        @RateLimited(limit = 1, window = "1h")
        public String get() {
            return "ok";
        }
    }

    @Test
    void neitherAnAdmittedNorARefusedCallShowsTheLimits() {
        String tenant = UUID.randomUUID().toString();
        given().header("X-Tenant-Id", tenant).get("/quiet").then().statusCode(200)
                .header("RateLimit", nullValue()).header("RateLimit-Policy", nullValue())
                .header("X-RateLimit-Remaining", nullValue());
        given().header("X-Tenant-Id", tenant).get("/quiet").then().statusCode(429)
                .header("RateLimit", nullValue()).header("RateLimit-Policy", nullValue())
                .header("Retry-After", notNullValue());
    }
}
