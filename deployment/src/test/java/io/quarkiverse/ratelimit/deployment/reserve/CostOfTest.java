package io.quarkiverse.ratelimit.deployment.reserve;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Scope;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * {@code @RateLimited(cost = estimate, costOf = ...)}: a call reserves its estimate before the method runs and is
 * settled at the cost its {@link CostOf} bean reads from the result, for plain, {@code Uni} and
 * {@code CompletionStage} methods, and from each item of a {@code Multi} when the stream ends (completed or
 * cancelled); the response's {@code RateLimit} header says what is left after the settlement; a failed call keeps its
 * estimate.
 */
class CostOfTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, Words.class, MisreadWords.class, Narrator.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .setLogRecordPredicate(record -> record.getLoggerName().endsWith("Admission"))
            // the misread cost's warning (aCostAboveTheLargestOneLeavesTheCallAtItsEstimateAndSaysSo)
            .assertLogRecords(records -> assertThat(records)
                    .anySatisfy(record -> assertThat(((ExtLogRecord) record).getFormattedMessage())
                            .contains(MisreadWords.class.getName()).contains(Long.toString(Long.MAX_VALUE))
                            .contains("counts at its estimate")));

    /** The assistant's limit as code sees it, to read its state: it shares the annotation's counter by name. */
    static final RateLimit WORDS = RateLimit.of("assistant-words", 1000, Duration.ofHours(1));

    /** A CostOf with no scope of its own: the extension makes it a singleton bean. */
    public static class Words implements CostOf<String> {
        @Override
        public long cost(String answer) {
            return answer.isBlank() ? 0 : answer.trim().split(" +").length;
        }
    }

    /** A CostOf that reads the wrong field: a count no call can cost. */
    public static class MisreadWords implements CostOf<String> {
        @Override
        public long cost(String answer) {
            return Long.MAX_VALUE;
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
        @Path("/stream")
        @RateLimited(name = "assistant-words", limit = 1000, window = "1h", cost = 300, costOf = Words.class)
        public Multi<String> stream(@QueryParam("words") int words) {
            return Multi.createFrom().range(0, words).map(i -> "word ");
        }

        @GET
        @Path("/misread")
        @RateLimited(name = "assistant-words", limit = 1000, window = "1h", cost = 300, costOf = MisreadWords.class)
        public String misread(@QueryParam("words") int words) {
            return "word ".repeat(words);
        }

        @GET
        @Path("/failing")
        @RateLimited(name = "assistant-words", limit = 1000, window = "1h", cost = 300, costOf = Words.class)
        public String failing() {
            throw new IllegalStateException("no answer");
        }
    }

    /** A stream outside HTTP, read as far as its subscriber wants. */
    @ApplicationScoped
    public static class Narrator {

        @RateLimited(name = "narrator-words", limit = 1000, window = "1h", scope = Scope.GLOBAL, cost = 300, costOf = Words.class)
        public Multi<String> tell() {
            return Multi.createFrom().range(0, 1000).map(i -> "word ");
        }
    }

    @Inject
    RateLimiter limiter;

    @Inject
    Narrator narrator;

    @Inject
    RateLimitAdmin admin;

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
    void theRateLimitHeaderTellsWhatIsLeftAfterTheSettlement() {
        String tenant = tenant();
        assertThat(header(tenant, "/plain", 40)).as("40 words of 1,000; 300 reserved").startsWith("\"assistant-words\";r=960;");
        assertThat(header(tenant, "/uni", 100)).startsWith("\"assistant-words\";r=860;");
        assertThat(header(tenant, "/stage", 1000)).as("in debt: nothing left").startsWith("\"assistant-words\";r=0;");
    }

    @Test
    void aStreamIsSettledWhenItEndsAtTheSumOfItsItemsCosts() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).queryParam("words", 120).get("/assistant/stream").then().statusCode(200);
        assertThat(remaining(tenant)).isEqualTo(880);
    }

    @Test
    void aStreamCancelledByItsSubscriberIsSettledAtWhatItEmitted() {
        assertThat(narrator.tell().select().first(25).collect().asList().await().indefinitely()).hasSize(25);
        assertThat(admin.status(RateLimitSubject.everyone(), "narrator-words").get(0).remaining())
                .as("25 words told where 300 were reserved").isEqualTo(1000 - 25);
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

    @Test
    void aCostAboveTheLargestOneLeavesTheCallAtItsEstimateAndSaysSo() {
        String tenant = tenant();
        ask(tenant, "/misread", 40, 200);
        assertThat(remaining(tenant)).as("the estimate, not a debt that wrapped around").isEqualTo(700);
    }

    private static void ask(String tenant, String path, int words, int status) {
        given().header("X-Tenant-Id", tenant).queryParam("words", words).get("/assistant" + path).then()
                .statusCode(status);
    }

    private static String header(String tenant, String path, int words) {
        return given().header("X-Tenant-Id", tenant).queryParam("words", words).get("/assistant" + path).then()
                .statusCode(200).extract().header("RateLimit");
    }

    private long remaining(String tenant) {
        return limiter.status(WORDS, tenant).await().indefinitely().remaining();
    }

    private static String tenant() {
        return "assistant-" + UUID.randomUUID();
    }
}
