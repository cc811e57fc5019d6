package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * A cached refusal never outlives the truth in Redis: another instance's change, announced on the invalidation channel,
 * clears it here; and while this instance cannot hear announcements, it answers nothing from the cache.
 */
class RefusalInvalidationTest {

    private static final String CHANNEL = "rate-limit:invalidations";

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Quota.class, RedisCommandStats.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", RedisCommandStats.QUIET_HEARTBEAT);

    @Inject
    Redis redis;

    @Inject
    InvalidationChannel invalidations;

    @Path("/quota")
    public static class Quota {

        @GET
        @RateLimited(limit = 3, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public String call() {
            return "ok";
        }
    }

    @Test
    void aChangeAnnouncedByAnotherInstanceEndsTheCachedRefusalAtOnce() {
        String tenant = exhaust();
        String key = keyOf(tenant);
        redis.send(Request.cmd(Command.DEL).arg(key)).await().indefinitely();

        // Redis has room again, but nobody said so: this instance still answers from its cache
        long before = RedisCommandStats.scriptCalls(redis);
        for (int i = 0; i < 10; i++) {
            given().header("X-Tenant-Id", tenant).get("/quota").then().statusCode(429);
        }
        assertThat(RedisCommandStats.scriptCalls(redis) - before).isZero();

        redis.send(Request.cmd(Command.PUBLISH).arg(CHANNEL).arg(key)).await().indefinitely();
        Awaitility.await().atMost(Duration.ofMillis(500)).pollInterval(Duration.ofMillis(5))
                .until(() -> given().header("X-Tenant-Id", tenant).get("/quota").statusCode() == 200);
    }

    @Test
    void theSubscriptionStaysConfirmedLongPastItsUnconfirmedLifetime() {
        // PINGs on the subscription keep confirming it: heard for 4 s in a row, four lifetimes of 1 s
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(invalidations::live);
        Awaitility.await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(invalidations::live);
    }

    @Test
    void aLostSubscriptionStopsTheCacheAnsweringUntilItIsBack() {
        String tenant = exhaust();
        redis.send(Request.cmd(Command.DEL).arg(keyOf(tenant))).await().indefinitely();

        redis.send(Request.cmd(Command.CLIENT).arg("KILL").arg("TYPE").arg("pubsub")).await().indefinitely();
        // not told of the reset, but no longer sure to hear of it: Redis decides, and has room
        Awaitility.await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
                .until(() -> given().header("X-Tenant-Id", tenant).get("/quota").statusCode() == 200);

        // subscribed again: refusals are cached again
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> subscribers() == 1);
        String next = exhaust();
        long before = RedisCommandStats.scriptCalls(redis);
        Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> {
            given().header("X-Tenant-Id", next).get("/quota").then().statusCode(429);
            long sent = RedisCommandStats.scriptCalls(redis);
            for (int i = 0; i < 20; i++) {
                given().header("X-Tenant-Id", next).get("/quota").then().statusCode(429);
            }
            return RedisCommandStats.scriptCalls(redis) == sent;
        });
        assertThat(RedisCommandStats.scriptCalls(redis) - before).isLessThan(20);
    }

    /** Three admitted calls and one refused (and held) of a new tenant. */
    private static String exhaust() {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/quota").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).get("/quota").then().statusCode(429);
        return tenant;
    }

    private String keyOf(String tenant) {
        Response keys = redis.send(Request.cmd(Command.KEYS).arg("rate-limit:{" + tenant + "}*")).await().indefinitely();
        List<String> found = new java.util.ArrayList<>();
        keys.forEach(key -> found.add(key.toString()));
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    private long subscribers() {
        Response numsub = redis.send(Request.cmd(Command.PUBSUB).arg("NUMSUB").arg(CHANNEL)).await().indefinitely();
        return numsub.get(1).toLong();
    }
}
