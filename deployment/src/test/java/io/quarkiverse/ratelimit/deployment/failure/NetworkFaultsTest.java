package io.quarkiverse.ratelimit.deployment.failure;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Faults of the network between the application and a healthy Redis ({@link FaultyLink}), against the bounds the
 * failure-modes page gives: a slow or narrow link delays decisions but keeps them exact; a black hole fails every call
 * over within the decision timeout and a sweep, opens the breaker, and the breaker closes again once the path is back;
 * a reset in the middle of a reply fails over the calls on that connection at once, and the next calls are decided by
 * Redis again. No call is answered 500.
 * <p>
 * Real time is this test's subject (the bounds of the failure-modes page are durations a caller sees): it reads the wall clock
 * on purpose.
 */
class NetworkFaultsTest {

    static final TestRedis REDIS = TestRedis.named("network-faults");
    static final FaultyLink LINK = FaultyLink.to("network-faults", REDIS.uri());
    static final long DECISION_TIMEOUT_MS = 300;

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Faults.class, TestRedis.class, FaultyLink.class))
            .overrideConfigKey("quarkus.redis.hosts", LINK.uri())
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.decision-timeout", DECISION_TIMEOUT_MS + "ms")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.failure-threshold", "1")
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.open-duration", "1s");

    @Path("/faults")
    public static class Faults {

        @GET
        @Path("exact")
        @RateLimited(limit = 5, window = "1h", failureMode = FailureMode.FAIL_CLOSED)
        public String exact() {
            return "ok";
        }

        @GET
        @Path("closed")
        @RateLimited(limit = 100_000, window = "1h", failureMode = FailureMode.FAIL_CLOSED)
        public String closed() {
            return "ok";
        }
    }

    @Inject
    LimiterStatus status;

    @AfterEach
    void heal() {
        LINK.heal();
        await("decided by Redis again").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> given().header("X-Tenant-Id", tenant()).get("/faults/closed").then().statusCode(200));
    }

    @AfterAll
    static void stop() {
        LINK.close();
        REDIS.close();
    }

    @Test
    void aSlowLinkDelaysDecisionsAndKeepsThemExact() throws Exception {
        LINK.delay(Duration.ofMillis(40));
        long started = System.nanoTime();
        given().header("X-Tenant-Id", tenant()).get("/faults/closed").then().statusCode(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the link's 40 ms each way")
                .isGreaterThanOrEqualTo(Duration.ofMillis(80));
        assertThat(burst("/faults/exact", 20)).as("exactly the limit, decided by Redis")
                .containsExactlyInAnyOrderEntriesOf(Map.of(200, 5, 429, 15));
    }

    @Test
    void aNarrowLinkKeepsDecisionsExact() throws Exception {
        LINK.narrow(64 * 1024);
        assertThat(burst("/faults/exact", 20)).containsExactlyInAnyOrderEntriesOf(Map.of(200, 5, 429, 15));
    }

    @Test
    void aBlackHoleFailsEveryCallOverWithinTheTimeoutAndTheBreakerClosesOnceThePathIsBack() throws Exception {
        given().header("X-Tenant-Id", tenant()).get("/faults/closed").then().statusCode(200);
        LINK.blackHole();
        ExecutorService callers = Executors.newFixedThreadPool(10);
        try {
            List<Future<long[]>> calls = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                calls.add(callers.submit(() -> {
                    long sent = System.nanoTime();
                    int code = given().header("X-Tenant-Id", tenant()).get("/faults/closed").statusCode();
                    return new long[] { code, (System.nanoTime() - sent) / 1_000_000 };
                }));
            }
            for (Future<long[]> call : calls) {
                long[] answer = call.get();
                assertThat(answer[0]).as("fail-closed, not 500").isEqualTo(503);
                assertThat(answer[1]).as("answered within the decision timeout, a sweep and a margin")
                        .isLessThan(DECISION_TIMEOUT_MS + 20 + 700);
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(status.snapshot(null).get("circuit")).as("the breaker").isEqualTo("open");
        LINK.heal();
        await("the breaker closed again").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> {
                    given().header("X-Tenant-Id", tenant()).get("/faults/closed").then().statusCode(200);
                    assertThat(status.snapshot(null).get("circuit")).isEqualTo("closed");
                });
    }

    @Test
    void aResetInTheMiddleOfAReplyFailsOverAtOnceAndRedisDecidesTheNextCalls() {
        given().header("X-Tenant-Id", tenant()).get("/faults/closed").then().statusCode(200);
        LINK.resetNextReply();
        long sent = System.nanoTime();
        int code = given().header("X-Tenant-Id", tenant()).get("/faults/closed").statusCode();
        assertThat(code).as("admitted (the reply came whole on another path) or failed closed, never 500")
                .isIn(200, 503);
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("within the decision timeout and a margin")
                .isLessThan(Duration.ofMillis(DECISION_TIMEOUT_MS + 700));
    }

    /** {@code calls} concurrent calls of one tenant: how many got each status. */
    private static Map<Integer, Integer> burst(String path, int calls) throws Exception {
        String tenant = tenant();
        ExecutorService callers = Executors.newFixedThreadPool(calls);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                answers.add(callers.submit(() -> given().header("X-Tenant-Id", tenant).get(path).statusCode()));
            }
            Map<Integer, Integer> byStatus = new TreeMap<>();
            for (Future<Integer> answer : answers) {
                byStatus.merge(answer.get(), 1, Integer::sum);
            }
            return byStatus;
        } finally {
            callers.shutdownNow();
        }
    }

    private static String tenant() {
        return "net-" + UUID.randomUUID();
    }
}
