package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/** The code the docs show ({@code docs/modules/ROOT/examples}) does what the docs say it does. */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class DocumentedExamplesTest {

    @Inject
    TenantOperations operations;

    @Inject
    RolloutSwitches switches;

    @Inject
    RateLimitAdmin admin;

    @Test
    void theSearchIsLimitedToFivePerTenSeconds() {
        String tenant = tenant();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(429);
    }

    @Test
    void theShipmentQuotaCountsPerDayAndPerBillingMonthInNewYorkTime() {
        given().header("X-Tenant-Id", tenant()).post("/shipments").then().statusCode(200)
                .header("RateLimit-Policy", containsString("\"ShipmentQuotaResource.ship-day\";q=50000;w=86400"))
                .header("RateLimit-Policy", containsString("\"ShipmentQuotaResource.ship-month\";q=1000000;w=2678400"))
                .header("RateLimit", containsString("r=49999"))
                .header("RateLimit", containsString("r=999999"));
    }

    @Test
    void theExportCountsInBothItsLimitsAtOnce() {
        given().header("X-Tenant-Id", tenant()).get("/search/export").then().statusCode(200)
                .header("RateLimit", containsString("r=8")) // a cost of 2 of 10 per second
                .header("RateLimit", containsString("r=999")); // and one unit of 1000 an hour
    }

    @Test
    void aReportIsGeneratedWithinBothLimits() {
        given().header("X-Tenant-Id", tenant()).body("Q3").post("/reports").then().statusCode(200)
                .body(containsString("report: Q3")).header("RateLimit", matchesPattern(".*r=99.*"));
    }

    /**
     * The chat endpoint reserves its estimate (prompt and 256 answer tokens) of 2,000 tokens a minute and settles what
     * the answer used: short answers leave the budget to later calls; a call whose estimate does not fit is refused.
     */
    @Test
    void theChatReservesItsTokensAndSettlesWhatTheAnswerUsed() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).body("say hi in 5 words").post("/chat").then().statusCode(200)
                .header("X-Tokens-Used", "10").header("X-Tokens-Left-This-Minute", matchesPattern("19[0-9][0-9]"));
        // stories of 200 words: each reserves 262 tokens (6 of prompt, 256 of answer) and uses 206; after nine the
        // estimate of the tenth no longer fits (1,864 used)
        for (int i = 0; i < 9; i++) {
            given().header("X-Tenant-Id", tenant).body("tell a story in 200 words").post("/chat").then()
                    .statusCode(200).header("X-Tokens-Used", "206");
        }
        given().header("X-Tenant-Id", tenant).body("tell a story in 200 words").post("/chat").then()
                .statusCode(429).header("Retry-After", notNullValue());
        given().body("no tenant").post("/chat").then().statusCode(400);
    }

    /** A summary reserves 256 words and is settled at the 50 its answer has: the header shows what is left after. */
    @Test
    void aSummaryIsSettledAtTheWordsOfItsAnswer() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).body("a long text").post("/summaries").then().statusCode(200)
                .header("RateLimit", containsString("r=4950"));
        given().header("X-Tenant-Id", tenant).body("a long text").post("/summaries").then().statusCode(200)
                .header("RateLimit", containsString("r=4900"));
    }

    /**
     * A streamed summary reserves 256 words and is settled when the stream ends, at its 50 words: its headers went out
     * with the first word, so the next call's show the settlement.
     */
    @Test
    void aStreamedSummaryIsSettledWhenItEnds() {
        String tenant = tenant();
        String events = given().header("X-Tenant-Id", tenant).body("a long text").post("/summaries/stream").then()
                .statusCode(200).header("RateLimit", containsString("r=4744")).extract().asString();
        assertThat(events.split("data:")).hasSize(51);
        given().header("X-Tenant-Id", tenant).body("a long text").post("/summaries").then().statusCode(200)
                .header("RateLimit", containsString("r=4900"));
    }

    @Test
    void theEmailQuotaSendsTenAnHourAndGivesABounceBack() {
        String tenant = tenant();
        for (int i = 0; i < 10; i++) {
            given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(429);
        given().header("X-Tenant-Id", tenant).post("/emails/bounced").then().statusCode(204);
        given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(200);
    }

    @Test
    void theOperatorsLinesRaiseInspectResetAndBlock() {
        try {
            TenantOperations.Seen seen = operations.raiseInspectAndBlock();
            assertThat(seen.limits()).isEqualTo(Map.of("payments", 20L));
            assertThat(seen.left()).singleElement().satisfies(decision -> assertThat(decision.limit()).isEqualTo(20));
            assertThat(admin.limits("tiny-shop")).as("removed again").isEmpty();
            given().header("X-Tenant-Id", "abuser").post("/payments").then().statusCode(403);
        } finally {
            admin.unblock("abuser");
        }
        given().header("X-Tenant-Id", "abuser").post("/payments").then().statusCode(200);
    }

    @Test
    void aTenantReadsItsOwnLimitsWithoutSpendingThem() {
        String tenant = tenant();
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        }
        for (int asked = 1; asked <= 3; asked++) {
            given().header("X-Tenant-Id", tenant).get("/my/limits").then().statusCode(200)
                    .body("find { it.name == 'SearchResource.search' }.limit", is(5))
                    .body("find { it.name == 'SearchResource.search' }.remaining", is(2))
                    .body("find { it.name == 'SearchResource.search' }.inDebt", is(false))
                    .body("find { it.name == 'my-limits' }.remaining", is(60 - asked));
        }
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(429);
    }

    @Test
    void aClientWaitsForItsBatchWhenTheUsageSaysItDoesNotFit() throws Exception {
        String tenant = tenant();
        UsageAwareSender sender = new UsageAwareSender(URI.create(RestAssured.baseURI + ":" + RestAssured.port), tenant);
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        }
        assertThat(sender.waitBefore("SearchResource.search", 2)).as("2 of the 2 left").isZero();
        assertThat(sender.waitBefore("SearchResource.search", 3)).as("3 when 2 are left").isPositive()
                .isLessThanOrEqualTo(Duration.ofSeconds(20));
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
    }

    @Test
    void theOperatorReadsAndResetsACallerAddressesACarriersAndAGlobalCounter() {
        String address = "127.0.0.1"; // where the tests' calls come from
        operations.inspectOtherCounters(address);
        for (int i = 0; i < 5; i++) {
            given().post("/signup").then().statusCode(200);
        }
        given().post("/signup").then().statusCode(429);
        String tenant = "tiny-shop"; // a starter: 50 labels a minute per carrier
        given().header("X-Tenant-Id", tenant).post("/carriers/ups/labels").then().statusCode(200);

        TenantOperations.Subjects seen = operations.inspectOtherCounters(address);
        assertThat(seen.addressCountersReset()).isEqualTo(1);
        given().post("/signup").then().statusCode(200);
        assertThat(seen.ups()).singleElement().satisfies(decision -> {
            assertThat(decision.limit()).isEqualTo(50);
            assertThat(decision.remaining()).isLessThan(50);
        });
        assertThat(seen.printer()).singleElement().satisfies(decision -> assertThat(decision.limit()).isEqualTo(2));
    }

    /**
     * Label orders from a queue and the gateway's requests share the carrier's queue: every order becomes a label
     * (none given up, however far its turn), the gateway's calls are served in turn or refused at once, and the carrier
     * refuses nothing.
     */
    @Test
    void labelOrdersFromAQueueShareTheCarriersQuotaWithTheGateway() {
        // the consumer's path warmed up first (its worker thread, the REST client): on a cold application a call can
        // leave late after its turn
        long warming = carrierStat(1);
        given().body("first order").post("/label-orders").then().statusCode(202);
        Awaitility.await("a first label").atMost(Duration.ofSeconds(30)).until(() -> carrierStat(1) > warming);
        long acceptedBefore = carrierStat(1);
        long refusedBefore = carrierStat(2);
        int orders = 120; // 2.5 s of the quota: more than maxWait, so some orders wait longer than 2 s
        for (int i = 0; i < orders; i++) {
            given().body("order " + i).post("/label-orders").then().statusCode(202);
        }
        Map<Integer, Integer> gateway = ConcurrentRequests.sendAll(Collections.nCopies(40, HttpRequest
                .newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/gateway/labels"))
                .POST(HttpRequest.BodyPublishers.noBody()).build())).stream()
                .collect(Collectors.toMap(status -> status, status -> 1, Integer::sum));
        assertThat(gateway.keySet()).as("the gateway's calls: in turn, or refused at once").isSubsetOf(200, 429);
        long served = gateway.getOrDefault(200, 0);
        Awaitility.await("every order's label").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .conditionEvaluationListener(progress -> {
                    if (progress.getRemainingTimeInMS() < 200) {
                        System.out.printf("label orders: carrier accepted %d of %d + %d, refused %d%n",
                                carrierStat(1) - acceptedBefore, orders, served, carrierStat(2) - refusedBefore);
                    }
                })
                .until(() -> carrierStat(1) - acceptedBefore >= orders + served);
        assertThat(carrierStat(2) - refusedBefore).as("calls the carrier refused").isZero();
    }

    /**
     * A scheduled job's batch takes its turn in the carrier's queue beside the gateway's requests: every label of the
     * batch is sent (however far its turn), the gateway's calls are served in turn or refused at once, and the carrier
     * refuses nothing.
     */
    @Test
    void aScheduledJobsBatchSharesTheCarriersQuotaWithTheGateway() {
        // the outgoing paths warmed up first, the gateway's and the job's (the REST client's classes, the scheduler's
        // thread, the connection to the carrier stub): on a cold application a call can leave late after its turn
        given().post("/gateway/labels").then().statusCode(200);
        long warming = sent();
        given().post("/label-batches?labels=5").then().statusCode(202);
        Awaitility.await("a first batch").atMost(Duration.ofSeconds(30)).until(() -> sent() - warming >= 5);
        long sentBefore = sent();
        long refusedBefore = carrierStat(2);
        int labels = 120; // 2.5 s of the quota: more than maxWait, so some labels wait longer than 2 s
        given().post("/label-batches?labels=" + labels).then().statusCode(202);
        Map<Integer, Integer> gateway = ConcurrentRequests.sendAll(Collections.nCopies(40, HttpRequest
                .newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/gateway/labels"))
                .POST(HttpRequest.BodyPublishers.noBody()).build())).stream()
                .collect(Collectors.toMap(status -> status, status -> 1, Integer::sum));
        assertThat(gateway.keySet()).as("the gateway's calls: in turn, or refused at once").isSubsetOf(200, 429);
        Awaitility.await("every label of the batch").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> sent() - sentBefore >= labels);
        assertThat(carrierStat(2) - refusedBefore).as("calls the carrier refused").isZero();
    }

    /** Labels the scheduled job sent so far. */
    private static long sent() {
        return Long.parseLong(given().get("/label-batches/sent").then().statusCode(200).extract().asString());
    }

    /** The carrier stub's stats: 1 accepted, 2 refused. */
    private static long carrierStat(int group) {
        Matcher stats = Pattern.compile("accepted=(\\d+) refused=(\\d+) per-second=(\\d+)")
                .matcher(given().get("/carrier-stub/stats").then().statusCode(200).extract().asString());
        assertThat(stats.matches()).isTrue();
        return Long.parseLong(stats.group(group));
    }

    @Test
    void theKillSwitchTurnsEveryLimitOffAndClearingItTurnsThemOn() {
        String tenant = tenant();
        try {
            switches.everyLimitOff();
            switches.labelsForAQuarterOfTenants(); // its own switch: the kill switch still wins
            for (int i = 0; i < 8; i++) {
                given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
            }
        } finally {
            switches.backToConfiguration();
        }
        assertThat(admin.switches()).isEmpty();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(429);
    }

    private static String tenant() {
        return "docs-" + UUID.randomUUID();
    }
}
