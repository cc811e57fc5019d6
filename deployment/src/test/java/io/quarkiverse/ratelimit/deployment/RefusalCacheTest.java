package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.redis.client.Redis;

/**
 * A tenant flooding a limit it has exhausted costs Redis nothing until Redis said it could retry: this instance repeats
 * the refusal, with the same headers, and never admits without Redis.
 */
class RefusalCacheTest {

    private static final int FLOOD = 500;

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Flooded.class, RedisCommandStats.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", RedisCommandStats.QUIET_HEARTBEAT);

    @Inject
    Redis redis;

    @Path("/flooded")
    public static class Flooded {

        @GET
        @Path("cached")
        @RateLimited(limit = 3, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public String cached() {
            return "ok";
        }

        @GET
        @Path("two-limits")
        @RateLimited(limit = 10, window = "1h", name = "hourly")
        @RateLimited(limit = 5, window = "30m", name = "half-hourly")
        public String twoLimits() {
            return "ok";
        }

        @GET
        @Path("uncached")
        @RateLimited(limit = 3, window = "1h", algorithm = Algorithm.FIXED_WINDOW, cacheRefusals = false)
        public String uncached() {
            return "ok";
        }
    }

    @Test
    void aFloodOfRefusedCallsCostsRedisOneCommand() {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/flooded/cached").then().statusCode(200);
        }
        long before = RedisCommandStats.scriptCalls(redis);
        for (int i = 0; i < FLOOD; i++) {
            given().header("X-Tenant-Id", tenant).get("/flooded/cached").then().statusCode(429)
                    .header("Retry-After", matchesPattern("[1-9]\\d*"))
                    .header("RateLimit", matchesPattern("\"Flooded.cached\";r=0;t=[1-9]\\d*"))
                    .header("RateLimit-Policy", equalTo("\"Flooded.cached\";q=3;w=3600"));
        }
        // the first refusal asked Redis; the rest were repeated here
        assertThat(RedisCommandStats.scriptCalls(redis) - before).isLessThanOrEqualTo(FLOOD / 100);
    }

    @Test
    void aRefusalFromTheCacheIsTheRefusalRedisGaveWithEveryLimitsItem() {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/flooded/two-limits").then().statusCode(200);
        }
        io.restassured.response.Response fromRedis = given().header("X-Tenant-Id", tenant).get("/flooded/two-limits");
        long before = RedisCommandStats.scriptCalls(redis);
        io.restassured.response.Response fromCache = given().header("X-Tenant-Id", tenant).get("/flooded/two-limits");
        assertThat(RedisCommandStats.scriptCalls(redis)).as("answered from the cache").isEqualTo(before);

        for (io.restassured.response.Response refusal : List.of(fromRedis, fromCache)) {
            refusal.then().statusCode(429)
                    .header("RateLimit-Policy", equalTo("\"hourly\";q=10;w=3600, \"half-hourly\";q=5;w=1800"))
                    .header("RateLimit", matchesPattern("\"hourly\";r=5;t=\\d+, \"half-hourly\";r=0;t=\\d+"))
                    .header("Retry-After", matchesPattern("[1-9]\\d*"))
                    .body("violated-policies", equalTo(List.of("half-hourly")));
        }
    }

    @Test
    void aLimitThatOptsOutAsksRedisEveryTime() {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/flooded/uncached").then().statusCode(200);
        }
        long before = RedisCommandStats.scriptCalls(redis);
        for (int i = 0; i < 20; i++) {
            given().header("X-Tenant-Id", tenant).get("/flooded/uncached").then().statusCode(429);
        }
        assertThat(RedisCommandStats.scriptCalls(redis) - before).isEqualTo(20);
    }

    @Test
    void anotherTenantIsStillDecidedByRedis() {
        String flooding = UUID.randomUUID().toString();
        for (int i = 0; i < 4; i++) {
            given().header("X-Tenant-Id", flooding).get("/flooded/cached");
        }
        String quiet = UUID.randomUUID().toString();
        given().header("X-Tenant-Id", quiet).get("/flooded/cached").then().statusCode(200)
                .header("RateLimit", matchesPattern("\"Flooded.cached\";r=2;t=\\d+"));
    }
}
