package io.quarkiverse.ratelimit.deployment.rollout;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.specification.RequestSpecification;

/**
 * Mode, rollout percentage and failure mode switched while the application runs, through the admin endpoints: applied
 * at once on this instance, stored in Redis for the others; bad input is a 400 that changes nothing.
 */
class RunTimeSwitchesTest {

    static final TestRedis REDIS = TestRedis.named("run-time-switches");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Search.class, TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri())
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.admin.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.ops", "ops-password")
            .overrideConfigKey("quarkus.security.users.embedded.roles.ops", "rate-limit-admin")
            .overrideConfigKey("quarkus.http.auth.basic", "true");

    @Path("/search")
    public static class Search {

        @GET
        @RateLimited(name = "search", limit = 2, window = "1h", failureMode = FailureMode.LOCAL)
        public String search() {
            return "ok";
        }
    }

    @AfterEach
    void backToConfiguration() {
        if (REDIS.isAlive()) {
            ops().delete("/q/rate-limit/switches/search").then().statusCode(204);
            ops().delete("/q/rate-limit/switches").then().statusCode(204);
        }
    }

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    void aLimitSwitchedToShadowRefusesNothingAndBackToEnforceRefusesAgain() {
        String tenant = UUID.randomUUID().toString();
        call(tenant, 200);
        call(tenant, 200);
        call(tenant, 429);

        ops().contentType("application/json").body(Map.of("mode", "shadow")).put("/q/rate-limit/switches/search")
                .then().statusCode(204);
        ops().get("/q/rate-limit/switches").then().statusCode(200).body("search.mode", equalTo("shadow"));
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200).header("RateLimit", nullValue());

        ops().contentType("application/json").body(Map.of("mode", "enforce")).put("/q/rate-limit/switches/search")
                .then().statusCode(204);
        call(tenant, 429);
    }

    @Test
    void theKillSwitchTurnsEveryLimitOff() {
        String tenant = UUID.randomUUID().toString();
        ops().contentType("application/json").body(Map.of("mode", "off")).put("/q/rate-limit/switches")
                .then().statusCode(204);
        notLimited(tenant);
    }

    @Test
    void theKillSwitchWinsOverALimitsOwnSwitch() {
        String tenant = UUID.randomUUID().toString();
        ops().contentType("application/json").body(Map.of("mode", "enforce")).put("/q/rate-limit/switches/search")
                .then().statusCode(204);
        ops().contentType("application/json").body(Map.of("mode", "off")).put("/q/rate-limit/switches")
                .then().statusCode(204);
        notLimited(tenant);
    }

    /** More calls than the limit, all admitted, none with a rate-limit header: the limit is off. */
    private static void notLimited(String tenant) {
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200)
                    .header("RateLimit", nullValue());
        }
    }

    @Test
    void whatGetAnswersPutTakesBackUnchanged() {
        ops().contentType("application/json")
                .body(Map.of("mode", "shadow", "rolloutPercentage", 40, "failureMode", "fail-open"))
                .put("/q/rate-limit/switches/search").then().statusCode(204);
        Map<String, Object> search = ops().get("/q/rate-limit/switches").then().statusCode(200)
                .body("search.rolloutPercentage", equalTo(40)).extract().jsonPath().getMap("search");

        ops().contentType("application/json").body(search).put("/q/rate-limit/switches/search").then().statusCode(204);
        ops().get("/q/rate-limit/switches").then().statusCode(200)
                .body("search.mode", equalTo("shadow"))
                .body("search.rolloutPercentage", equalTo(40))
                .body("search.failureMode", equalTo("fail-open"));
    }

    @Test
    void aPercentageOfZeroPutsEveryTenantInShadow() {
        String tenant = UUID.randomUUID().toString();
        ops().contentType("application/json").body(Map.of("rolloutPercentage", 0)).put("/q/rate-limit/switches/search")
                .then().statusCode(204);
        for (int i = 0; i < 4; i++) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        }
    }

    @Test
    void badSwitchesAreA400AndChangeNothing() {
        ops().contentType("application/json").body(Map.of("mode", "shadow", "rolloutPercentage", 101))
                .put("/q/rate-limit/switches/search").then().statusCode(400)
                .body("detail", containsString("between 0 and 100, not 101"));
        ops().contentType("application/json").body(Map.of("mode", "dark")).put("/q/rate-limit/switches/search")
                .then().statusCode(400).body("detail", containsString("mode cannot be 'dark'"));
        ops().contentType("application/json").body(Map.of("mode", "shadow")).put("/q/rate-limit/switches/serach")
                .then().statusCode(400).body("detail", containsString("No limit uses the policy or name 'serach'"));
        ops().contentType("application/json").body("{\"mode\": ").put("/q/rate-limit/switches/search")
                .then().statusCode(400).body("detail", containsString("must be a JSON object"));
        ops().contentType("application/json").body(Map.of("speed", 3)).put("/q/rate-limit/switches/search")
                .then().statusCode(400).body("detail", containsString("Unknown setting 'speed'"));
        ops().contentType("application/json").body(Map.of("failureMode", "fail-closed")).put("/q/rate-limit/switches")
                .then().statusCode(400).body("detail", containsString("quarkus.rate-limit.failure-mode"));

        ops().get("/q/rate-limit/switches").then().statusCode(200).body(equalTo("{}"));
        String tenant = UUID.randomUUID().toString();
        call(tenant, 200);
        call(tenant, 200);
        call(tenant, 429);
    }

    @Test
    void aFailureModeSwitchedToFailClosedAnswers503WhenRedisFails() {
        ops().contentType("application/json").body(Map.of("failureMode", "fail-closed"))
                .put("/q/rate-limit/switches/search").then().statusCode(204);
        REDIS.kill();
        try {
            given().header("X-Tenant-Id", UUID.randomUUID().toString()).get("/search").then().statusCode(503);
        } finally {
            REDIS.restart();
        }
        // the switch lived in Redis, which restarted empty: the next refresh forgets it, as every instance will
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> ops().get("/q/rate-limit/switches").then().statusCode(200).body(equalTo("{}")));
    }

    private static void call(String tenant, int status) {
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(status);
    }

    private static RequestSpecification ops() {
        return given().auth().preemptive().basic("ops", "ops-password");
    }
}
