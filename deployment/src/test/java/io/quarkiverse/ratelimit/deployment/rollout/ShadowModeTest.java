package io.quarkiverse.ratelimit.deployment.rollout;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.RedisCommandStats;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.redis.client.Redis;

/**
 * Limits in shadow mode are decided on Redis exactly as when enforced, but refuse nothing; limits that are off cost
 * Redis nothing. Configured per limit name.
 */
class ShadowModeTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Dark.class, RedisCommandStats.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.limits.search.mode", "shadow")
            .overrideConfigKey("quarkus.rate-limit.limits.tight.mode", "shadow")
            .overrideConfigKey("quarkus.rate-limit.limits.export.mode", "off")
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", RedisCommandStats.QUIET_HEARTBEAT);

    @Inject
    Redis redis;

    @Path("/dark")
    public static class Dark {

        @GET
        @Path("search")
        @RateLimited(name = "search", limit = 50, window = "1h")
        public String search() {
            return "ok";
        }

        @GET
        @Path("mixed")
        @RateLimited(name = "hourly", limit = 5, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        @RateLimited(name = "tight", limit = 2, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public String mixed() {
            return "ok";
        }

        @GET
        @Path("export")
        @RateLimited(name = "export", limit = 1, window = "1h")
        public String export() {
            return "ok";
        }
    }

    @Test
    void fourHundredConcurrentCallsOnALimitOfFiftyAreAllServedAndThreeHundredFiftyRefusalsRecorded()
            throws Exception {
        String tenant = UUID.randomUUID().toString();
        ExecutorService callers = Executors.newFixedThreadPool(32);
        try {
            List<Future<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                calls.add(callers.submit(() -> given().header("X-Tenant-Id", tenant).get("/dark/search")
                        .then().header("RateLimit", nullValue()).extract().statusCode()));
            }
            for (Future<Integer> call : calls) {
                assertThat(call.get()).isEqualTo(200);
            }
        } finally {
            callers.shutdownNow();
        }
        String scrape = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(decisions(scrape, "search", "rejected")).isEqualTo(350);
        assertThat(decisions(scrape, "search", "allowed")).isEqualTo(50);
    }

    @Test
    void aShadowLimitThatRefusesDoesNotStopTheEnforcedOnesCounting() {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 5; i++) {
            // from the third call on, "tight" (shadow) refuses; "hourly" still counts every call
            given().header("X-Tenant-Id", tenant).get("/dark/mixed").then().statusCode(200)
                    .header("RateLimit-Policy", equalTo("\"hourly\";q=5;w=3600"));
        }
        given().header("X-Tenant-Id", tenant).get("/dark/mixed").then().statusCode(429)
                .header("RateLimit", matchesPattern("\"hourly\";r=0;t=\\d+"))
                .body("violated-policies", equalTo(List.of("hourly")));
    }

    @Test
    void aLimitThatIsOffCostsRedisNothing() {
        long before = RedisCommandStats.scriptCalls(redis);
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 20; i++) {
            given().header("X-Tenant-Id", tenant).get("/dark/export").then().statusCode(200)
                    .header("RateLimit", nullValue());
        }
        assertThat(RedisCommandStats.scriptCalls(redis)).isEqualTo(before);
    }

    private static long decisions(String scrape, String limit, String result) {
        Matcher matcher = Pattern.compile("(?m)^rate_limit_decisions_total\\{decided_by=\"redis\",limit=\"" + limit
                + "\",mode=\"shadow\",result=\"" + result + "\"} ([0-9.E+-]+)").matcher(scrape);
        assertThat(matcher.find()).as("%s %s in the scrape", limit, result).isTrue();
        return Math.round(Double.parseDouble(matcher.group(1)));
    }
}
