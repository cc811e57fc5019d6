package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.runtime.decide.DecisionGuard;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;

/**
 * Redis killed, paused and restarted under the application: every failure mode answers as configured, no request waits
 * longer than the decision timeout, the breaker keeps requests off a dead Redis, and exact limiting resumes by itself.
 */
@QuarkusTest
@WithTestResource(value = ControllableRedisResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class RedisFailureTest {

    /** The decision timeout plus a generous margin for a loaded 2-core CI machine. */
    static final Duration BOUND = ConfigProvider.getConfig()
            .getValue("quarkus.rate-limit.decision-timeout", Duration.class).plusMillis(1500);

    /** A client timeout far above the bound: a request that hung on Redis would fail here, not hang the build. */
    static final RestAssuredConfig CLIENT = RestAssuredConfig.config().httpClient(HttpClientConfig.httpClientConfig()
            .setParam("http.socket.timeout", 10_000).setParam("http.connection.timeout", 10_000));

    @InjectRedisServer
    LocalRedisServer redis;

    @Inject
    DecisionGuard limiter;

    @Inject
    ScriptRunner scripts;

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
        assertThat(limiter.circuitState()).isEqualTo(State.OPEN);

        long attemptsWhileOpen = limiter.redisAttempts();
        for (int i = 0; i < 20; i++) {
            timed(tenant, "/failure/open").then().statusCode(200);
        }
        assertThat(limiter.redisAttempts()).as("decisions sent to Redis while the breaker is open")
                .isEqualTo(attemptsWhileOpen);
    }

    @Test
    void aPausedRedisAddsAtMostTheTimeoutToAnyRequest() {
        redis.pause();
        String tenant = tenant();
        for (int i = 0; i < 10; i++) {
            timed(tenant, "/failure/open").then().statusCode(200);
        }
        assertThat(limiter.circuitState()).isEqualTo(State.OPEN);
    }

    @Test
    void whenRedisComesBackTheBreakerClosesAndExactLimitingResumes() {
        redis.kill();
        for (int i = 0; i < 3; i++) {
            timed(tenant(), "/failure/open").then().statusCode(200);
        }
        assertThat(limiter.circuitState()).isEqualTo(State.OPEN);

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

    /** Probes through a fail-open endpoint until a probe reaches the restarted Redis and closes the breaker. */
    private void awaitBreakerClosed() {
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).until(() -> {
            timed(tenant(), "/failure/open");
            return limiter.circuitState() == State.CLOSED;
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
