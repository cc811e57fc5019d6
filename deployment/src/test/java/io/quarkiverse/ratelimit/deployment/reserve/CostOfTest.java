package io.quarkiverse.ratelimit.deployment.reserve;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @RateLimited(cost = estimate, costOf = ...)}: a call reserves its estimate before the method runs and is
 * settled at the cost its {@link CostOf} bean reads from the result, for plain, {@code Uni} and
 * {@code CompletionStage} methods; a failed call keeps its estimate.
 */
class CostOfTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, Words.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    /** The assistant's limit as code sees it, to read its state: it shares the annotation's counter by name. */
    static final RateLimit WORDS = RateLimit.of("assistant-words", 1000, Duration.ofHours(1));

    /** A CostOf with no scope of its own: the extension makes it a singleton bean. */
    public static class Words implements CostOf<String> {
        @Override
        public long cost(String answer) {
            return answer.isBlank() ? 0 : answer.trim().split(" +").length;
        }
    }

    /** Answers of as many words as asked for; each reserves 300 words of 1,000 an hour. */
    @Path("/assistant")
    public static class Assistant {

        @GET
        @Path("/plain")
        @RateLimited(name = "assistant-words", limit = 1000, window = "1h", cost = 300, costOf = Words.class)
        public String plain(@QueryParam("words") int words) {
            return "word ".repeat(words);
        }

        @GET
        @Path("/uni")
        @RateLimited(name = "assistant-words", limit = 1000, window = "1h", cost = 300, costOf = Words.class)
        public Uni<String> uni(@QueryParam("words") int words) {
            return Uni.createFrom().item("word ".repeat(words));
        }

        @GET
        @Path("/stage")
        @RateLimited(name = "assistant-words", limit = 1000, window = "1h", cost = 300, costOf = Words.class)
        public CompletionStage<String> stage(@QueryParam("words") int words) {
            return CompletableFuture.completedFuture("word ".repeat(words));
        }

        @GET
        @Path("/failing")
        @RateLimited(name = "assistant-words", limit = 1000, window = "1h", cost = 300, costOf = Words.class)
        public String failing() {
            throw new IllegalStateException("no answer");
        }
    }

    @Inject
    RateLimiter limiter;

    @Test
    void eachShapeIsSettledAtTheCostItsResultReports() {
        String tenant = tenant();
        ask(tenant, "/plain", 40, 200);
        assertThat(remaining(tenant)).isEqualTo(960);
        ask(tenant, "/uni", 100, 200);
        assertThat(remaining(tenant)).isEqualTo(860);
        ask(tenant, "/stage", 500, 200);
        assertThat(remaining(tenant)).as("500 where 300 were reserved").isEqualTo(360);
    }

    @Test
    void aCallIsAdmittedOnItsEstimateAndAnOverrunIsDebt() {
        String tenant = tenant();
        ask(tenant, "/plain", 900, 200);
        assertThat(remaining(tenant)).isEqualTo(100);
        ask(tenant, "/plain", 10, 429); // 300 estimated, 100 left
        assertThat(remaining(tenant)).isEqualTo(100);
    }

    @Test
    void aFailedCallKeepsItsEstimate() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).get("/assistant/failing").then().statusCode(500);
        assertThat(remaining(tenant)).isEqualTo(700);
    }

    private static void ask(String tenant, String path, int words, int status) {
        given().header("X-Tenant-Id", tenant).queryParam("words", words).get("/assistant" + path).then()
                .statusCode(status);
    }

    private long remaining(String tenant) {
        return limiter.status(WORDS, tenant).await().indefinitely().remaining();
    }

    private static String tenant() {
        return "assistant-" + UUID.randomUUID();
    }
}
