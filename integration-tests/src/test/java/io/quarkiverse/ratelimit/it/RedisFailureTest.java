package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;

/**
 * Redis killed, paused and restarted under the application: every failure mode answers as configured, no request waits
 * longer than the decision timeout, the breaker keeps requests off a dead Redis, and exact limiting resumes by itself.
 * <p>
 * Real time is this test's subject (no request waits longer than the decision timeout): it reads the wall clock on purpose.
 */
@QuarkusTest
@WithTestResource(value = ControllableRedisResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class RedisFailureTest {

    static final Duration TIMEOUT = ConfigProvider.getConfig().getValue("quarkus.rate-limit.decision-timeout",
            Duration.class);

    /** The decision timeout plus a generous margin for a loaded 2-core CI machine. */
    static final Duration BOUND = TIMEOUT.plusMillis(1500);

    /** A client timeout far above the bound: a request that hung on Redis would fail here, not hang the build. */
    static final RestAssuredConfig CLIENT = RestAssuredConfig.config().httpClient(HttpClientConfig.httpClientConfig()
            .setParam("http.socket.timeout", 10_000).setParam("http.connection.timeout", 10_000));

    @InjectRedisServer
    LocalRedisServer redis;

    @Inject
    LimiterStatus limiter;

    @Inject
    ScriptRunner scripts;

    @Inject
    RedisTransport transport;

    @Inject
    Vertx vertx;

    @BeforeEach
    void redisIsHealthyAndTheBreakerClosed() {
        if (!redis.isAlive()) {
            redis.restart();
        }
        awaitBreakerClosed();
    }

    @AfterEach
    void healRedis() {
        if (redis.isAlive()) {
            redis.resume();
        } else {
            redis.restart();
        }
    }

    @Test
    void withRedisDeadTheLocalModeLimitsOnThisInstance() {
        redis.kill();
        String tenant = tenant();
        for (int i = 0; i < FailureModesResource.LIMIT; i++) {
            timed(tenant, "/failure/local").then().statusCode(200)
                    .header("RateLimit-Policy", "\"FailureModesResource.local\";q=5;w=3600");
        }
        timed(tenant, "/failure/local").then().statusCode(429).header("Retry-After", matchesPattern("\\d+"));
        timed(tenant(), "/failure/local").then().statusCode(200);
    }

    @Test
    void withRedisDeadAReactiveEndpointFallsBackToo() {
        redis.kill();
        String tenant = tenant();
        for (int i = 0; i < FailureModesResource.LIMIT; i++) {
            timed(tenant, "/failure/local-reactive").then().statusCode(200);
        }
        timed(tenant, "/failure/local-reactive").then().statusCode(429);
    }

    @Test
    void withRedisDeadFailOpenAdmitsEverything() {
        redis.kill();
        String tenant = tenant();
        for (int i = 0; i < 3 * FailureModesResource.LIMIT; i++) {
            timed(tenant, "/failure/open").then().statusCode(200);
        }
    }

    @Test
    void withRedisDeadFailClosedAnswers503WithRetryAfter() {
        redis.kill();
        timed(tenant(), "/failure/closed").then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", matchesPattern("[1-9]\\d*"))
                .body("type", equalTo("https://iana.org/assignments/http-problem-types#temporary-reduced-capacity"))
                .body("status", equalTo(503))
                .body("title", equalTo("Service Unavailable"))
                .body("violated-policies", hasSize(1));
    }

    @Test
    void theBreakerOpensAfterThreeFailuresAndThenNoDecisionGoesToRedis() {
        redis.kill();
        String tenant = tenant();
        for (int i = 0; i < 3; i++) {
            timed(tenant, "/failure/open").then().statusCode(200);
        }
        assertThat(limiter.circuit()).isEqualTo(State.OPEN);

        long attemptsWhileOpen = limiter.decisionsSentToRedis();
        for (int i = 0; i < 20; i++) {
            timed(tenant, "/failure/open").then().statusCode(200);
        }
        assertThat(limiter.decisionsSentToRedis()).as("decisions sent to Redis while the breaker is open")
                .isEqualTo(attemptsWhileOpen);
    }

    @Test
    void aPausedRedisAddsAtMostTheTimeoutToAnyRequest() {
        redis.pause();
        String tenant = tenant();
        for (int i = 0; i < 10; i++) {
            timed(tenant, "/failure/open").then().statusCode(200);
        }
        assertThat(limiter.circuit()).isEqualTo(State.OPEN);
    }

    @Test
    void whenRedisComesBackTheBreakerClosesAndExactLimitingResumes() {
        redis.kill();
        for (int i = 0; i < 3; i++) {
            timed(tenant(), "/failure/open").then().statusCode(200);
        }
        assertThat(limiter.circuit()).isEqualTo(State.OPEN);

        long recoveriesBefore = scripts.noScriptRecoveries();
        redis.restart();
        awaitBreakerClosed();

        String tenant = tenant();
        for (int i = 0; i < FailureModesResource.LIMIT; i++) {
            timed(tenant, "/failure/closed").then().statusCode(200);
        }
        timed(tenant, "/failure/closed").then().statusCode(429);
        @SuppressWarnings("unchecked")
        List<String> keys = (List<String>) redis.command("KEYS", "rate-limit:{" + tenant + "}:*");
        assertThat(keys).as("the counter lives in Redis again").hasSize(1);
        assertThat(scripts.noScriptRecoveries()).as("the restarted Redis had no scripts: NOSCRIPT, then EVAL")
                .isGreaterThan(recoveriesBefore);
    }

    /** How many calls are in flight when Redis stops answering. */
    static final int IN_FLIGHT = 300;

    /**
     * The documented margin over the decision timeout: one sweep (10 ms at 1 s), and answering the calls given up
     * together, which takes a small machine shared with this test's client up to about 100 ms for 300 calls. A call
     * that waited a timeout of its own after the silence, or a second timeout, falls far outside it.
     */
    static final Duration MARGIN = Duration.ofMillis(200);

    /**
     * Hundreds of calls in flight when Redis is paused (SIGSTOP): each is answered at most the decision timeout plus
     * the margin after Redis fell silent (its last reply to this instance), or after the call started if later,
     * although Redis had answered other calls just before. {@code CLIENT PAUSE} holds the calls' scripts in Redis
     * while they arrive, so every one is in flight when the SIGSTOP lands. The instance is warm (a first pause loads
     * the failure path's classes) and the calls reuse open connections, so the time measured is the rate limiter's.
     */
    @Test
    void hundredsOfCallsInFlightAtAPauseEachWaitAtMostTheTimeoutAfterIt() {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultPort(RestAssured.port)
                .setKeepAlive(true), new PoolOptions().setHttp1MaxSize(IN_FLIGHT));
        try {
            join(burst(client, new long[IN_FLIGHT], new long[IN_FLIGHT])); // opens the connections reused below
            pausedBurst(client, new long[IN_FLIGHT], new long[IN_FLIGHT]); // a first pause: the failure path loads
            redis.resume();
            awaitBreakerClosed();

            long[] started = new long[IN_FLIGHT];
            long[] answered = new long[IN_FLIGHT];
            List<Integer> statuses = pausedBurst(client, started, answered);
            long silentSince = transport.lastReplyNanos();
            int waitedForRedis = 0;
            for (int i = 0; i < IN_FLIGHT; i++) {
                assertThat(statuses.get(i)).as("call %d", i).isEqualTo(200);
                Duration afterSilence = Duration.ofNanos(answered[i] - Math.max(started[i], silentSince));
                assertThat(afterSilence).as("call %d, answered after Redis fell silent", i)
                        .isLessThanOrEqualTo(TIMEOUT.plus(MARGIN));
                if (answered[i] - started[i] >= TIMEOUT.minus(MARGIN).toNanos()) {
                    waitedForRedis++;
                }
            }
            assertThat(waitedForRedis).as("calls that were waiting for Redis").isGreaterThanOrEqualTo(IN_FLIGHT / 3);
        } finally {
            client.close();
        }
    }

    /** Holds Redis's clients, sends the calls, stops Redis while it holds them, and waits for every answer. */
    private List<Integer> pausedBurst(HttpClient client, long[] started, long[] answered) {
        redis.command("CLIENT", "PAUSE", "500", "ALL");
        List<CompletableFuture<Integer>> calls = burst(client, started, answered);
        redis.pause();
        return join(calls);
    }

    /** Every call at once, from the event loop: started and answered are taken where the bytes go and come. */
    private List<CompletableFuture<Integer>> burst(HttpClient client, long[] started, long[] answered) {
        List<CompletableFuture<Integer>> calls = new ArrayList<>(IN_FLIGHT);
        for (int i = 0; i < IN_FLIGHT; i++) {
            int call = i;
            CompletableFuture<Integer> status = new CompletableFuture<>();
            calls.add(status);
            started[call] = System.nanoTime();
            client.request(HttpMethod.GET, "/failure/local-reactive")
                    .compose(request -> request.putHeader("X-Tenant-Id", tenant()).send())
                    .compose(response -> response.body().map(body -> response.statusCode()))
                    .onComplete(result -> {
                        answered[call] = System.nanoTime();
                        if (result.succeeded()) {
                            status.complete(result.result());
                        } else {
                            status.completeExceptionally(result.cause());
                        }
                    });
        }
        return calls;
    }

    private static List<Integer> join(List<CompletableFuture<Integer>> calls) {
        return calls.stream().map(call -> call.orTimeout(30, TimeUnit.SECONDS).join()).toList();
    }

    /** Probes through a fail-open endpoint until a probe reaches the restarted Redis and closes the breaker. */
    private void awaitBreakerClosed() {
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).until(() -> {
            timed(tenant(), "/failure/open");
            return limiter.circuit() == State.CLOSED;
        });
    }

    /** Every request, whatever Redis does, is answered within the timeout plus a margin. */
    private static Response timed(String tenant, String path) {
        long started = System.nanoTime();
        Response response = given().config(CLIENT).header("X-Tenant-Id", tenant).get(path);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took).as("latency of " + path + " (status " + response.statusCode() + ")").isLessThan(BOUND);
        return response;
    }

    private static String tenant() {
        return "failure-" + UUID.randomUUID();
    }
}
