package io.quarkiverse.ratelimit.deployment.failure;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Redis is healthy, but the connections this instance decides on hang (a client that locked up, a half-open TCP
 * connection): decisions time out and the breaker opens. The instance must not stay stuck there, probing on the same
 * dead connections for ever; it drops connections that went silent and the half-open probe opens a new one.
 */
class WedgedConnectionTest {

    static final TestRedis REDIS = TestRedis.named("wedged-connection");
    static final FaultyLink PROXY = FaultyLink.to("wedged-connection", REDIS.uri());

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Guarded.class, TestRedis.class, FaultyLink.class))
            .overrideConfigKey("quarkus.redis.hosts", PROXY.uri())
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.decision-timeout", "300ms")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.failure-threshold", "1")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.open-duration", "1s");

    @Path("/guarded")
    public static class Guarded {

        @GET
        @RateLimited(limit = 1000, window = "1h", failureMode = FailureMode.FAIL_CLOSED)
        public String get() {
            return "ok";
        }
    }

    @AfterAll
    static void stop() {
        PROXY.close();
        REDIS.close();
    }

    @Test
    void anInstanceWhoseConnectionsHangRecoversOnNewOnesWhileRedisIsHealthy() {
        given().header("X-Tenant-Id", "t").get("/guarded").then().statusCode(200);

        PROXY.hangOpenConnections();
        given().header("X-Tenant-Id", "t").get("/guarded").then().statusCode(503);

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).untilAsserted(
                () -> given().header("X-Tenant-Id", "t").get("/guarded").then().statusCode(200));
    }
}
