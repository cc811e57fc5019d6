package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

class RateLimitedResourceTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Limited.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/limited")
    public static class Limited {

        @GET
        @RateLimited(limit = 3, window = "1h")
        public String sliding() {
            return "ok";
        }

        @GET
        @Path("/fixed")
        @RateLimited(limit = 2, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public String fixed() {
            return "ok";
        }
    }

    @Test
    void theDevServiceRunsALocalRedisOnAFreePort() {
        String hosts = ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class);
        assertThat(hosts).startsWith("redis://127.0.0.1:").doesNotEndWith(":6379");
    }

    @Test
    void theAdministrationEndpointsAreOffByDefault() {
        given().get("/q/rate-limit/policies").then().statusCode(404);
    }

    @Test
    void admitsTheLimitThenAnswers429WithHeadersAndProblemBody() {
        for (int i = 2; i >= 0; i--) {
            given().header("X-Tenant-Id", "t-admits").get("/limited")
                    .then().statusCode(200)
                    .header("RateLimit-Policy", "\"Limited.sliding\";q=3;w=3600")
                    .header("RateLimit", matchesPattern("\"Limited\\.sliding\";r=" + i + ";t=\\d+"));
        }
        given().header("X-Tenant-Id", "t-admits").get("/limited")
                .then().statusCode(429)
                .contentType("application/problem+json")
                .header("Retry-After", matchesPattern("[1-9]\\d*"))
                .header("RateLimit-Policy", "\"Limited.sliding\";q=3;w=3600")
                .header("RateLimit", matchesPattern("\"Limited\\.sliding\";r=0;t=\\d+"))
                .body("status", equalTo(429))
                .body("title", equalTo("Too Many Requests"))
                .body("violated-policies", equalTo(List.of("Limited.sliding")));
    }

    @Test
    void eachAlgorithmAndEachMethodCountsSeparately() {
        given().header("X-Tenant-Id", "t-separate").get("/limited").then().statusCode(200);
        given().header("X-Tenant-Id", "t-separate").get("/limited/fixed").then().statusCode(200);
        given().header("X-Tenant-Id", "t-separate").get("/limited/fixed").then().statusCode(200);
        given().header("X-Tenant-Id", "t-separate").get("/limited/fixed").then().statusCode(429);
        given().header("X-Tenant-Id", "t-separate").get("/limited").then().statusCode(200);
    }

    @Test
    void aCallWithoutTheTenantHeaderIsABadRequest() {
        given().get("/limited")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("detail", equalTo("The request header X-Tenant-Id is required and names the tenant"));
    }
}
