package io.quarkiverse.ratelimit.deployment.early;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.response.Response;

/**
 * A flood's refusals answered before Quarkus REST routes the request: the first refusal of a request's shape goes
 * through Quarkus REST, the next ones the refusal cache holds are answered earlier, with the same status, headers and
 * body; a call the cache holds no refusal for, a reset and a security check are answered as before.
 */
class EarlyRefusalTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Limited.class, RestArrivals.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.alice", "alice")
            .overrideConfigKey("quarkus.security.users.embedded.roles.alice", "user")
            .overrideConfigKey("quarkus.http.auth.basic", "true");

    @Path("/early")
    public static class Limited {

        @GET
        @Path("open")
        @RateLimited(limit = 2, window = "1h", name = "early-open")
        public String open() {
            return "ok";
        }

        @GET
        @Path("items/{id}")
        @RateLimited(limit = 1, window = "1h", name = "early-item")
        public String item(@PathParam("id") String id) {
            return id;
        }

        @GET
        @Path("secured")
        @RolesAllowed("user")
        @RateLimited(limit = 2, window = "1h", name = "early-secured")
        public String secured() {
            return "ok";
        }
    }

    @Inject
    RateLimiter limiter;

    @Test
    void aFloodsRefusalsAreAnsweredBeforeQuarkusRestAsQuarkusRestAnswersThem() {
        String tenant = tenant();
        call(tenant).then().statusCode(200);
        call(tenant).then().statusCode(200);
        int before = RestArrivals.count();
        Response throughRest = call(tenant);
        throughRest.then().statusCode(429);
        assertThat(RestArrivals.count()).as("the first refusal went through Quarkus REST").isEqualTo(before + 1);

        for (int i = 0; i < 20; i++) {
            Response early = call(tenant);
            early.then().statusCode(429);
            assertThat(early.header("RateLimit-Policy")).isEqualTo(throughRest.header("RateLimit-Policy"));
            assertThat(counted(early.header("RateLimit"))).isEqualTo(counted(throughRest.header("RateLimit")));
            assertThat(early.header("Retry-After")).isNotBlank();
            assertThat(early.header("Content-Type")).isEqualTo(throughRest.header("Content-Type"));
            assertThat(counted(early.body().asString())).isEqualTo(counted(throughRest.body().asString()));
        }
        assertThat(RestArrivals.count()).as("the next refusals were answered before Quarkus REST")
                .isEqualTo(before + 1);

        call(tenant()).then().statusCode(200); // another tenant on the same path: Redis decides, through Quarkus REST
        assertThat(RestArrivals.count()).isEqualTo(before + 2);
    }

    @Test
    void aResetEndsTheEarlyRefusalsAtOnce() {
        String tenant = tenant();
        call(tenant).then().statusCode(200);
        call(tenant).then().statusCode(200);
        call(tenant).then().statusCode(429);
        call(tenant).then().statusCode(429);
        limiter.resetAndAwait(RateLimit.of("early-open", 2, Duration.ofHours(1)), tenant);
        call(tenant).then().statusCode(200);
    }

    @Test
    void aSecurityCheckStillAnswersFirst() {
        String tenant = tenant();
        for (int i = 0; i < 2; i++) {
            secured(tenant).auth().preemptive().basic("alice", "alice").get("/early/secured").then().statusCode(200);
        }
        for (int i = 0; i < 3; i++) {
            secured(tenant).auth().preemptive().basic("alice", "alice").get("/early/secured").then().statusCode(429);
        }
        secured(tenant).get("/early/secured").then().statusCode(401);
    }

    /** The text with its numbers left out: the times in a refusal are counted down between two answers. */
    private static String counted(String text) {
        return text.replaceAll("\\d+", "#");
    }

    @Test
    void anEarlyRefusalIsMeasuredUnderItsEndpointsPathTemplate() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).get("/early/items/7").then().statusCode(200);
        given().header("X-Tenant-Id", tenant).get("/early/items/7").then().statusCode(429);
        int before = RestArrivals.count();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/early/items/7").then().statusCode(429);
        }
        assertThat(RestArrivals.count()).as("answered before Quarkus REST").isEqualTo(before);
        String metrics = given().get("/q/metrics").asString();
        assertThat(metrics).as("the HTTP server's metrics name the endpoint, not the item")
                .containsPattern(
                        "http_server_requests_seconds_count\\{[^}]*status=\"429\"[^}]*uri=\"/early/items/\\{id\\}\"[^}]*} 6\\.0")
                .doesNotContain("uri=\"/early/items/7\"");
    }

    private static Response call(String tenant) {
        return given().header("X-Tenant-Id", tenant).get("/early/open");
    }

    private static io.restassured.specification.RequestSpecification secured(String tenant) {
        return given().header("X-Tenant-Id", tenant);
    }

    private static String tenant() {
        return "early-" + UUID.randomUUID();
    }
}
