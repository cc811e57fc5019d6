package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

/** At most `limit` calls of one tenant in flight, measured inside the method; slots come back when calls end. */
class ConcurrencyLimitedTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Slow.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/slow")
    public static class Slow {

        static final AtomicInteger inFlight = new AtomicInteger();
        static final AtomicInteger maxInFlight = new AtomicInteger();
        static volatile CountDownLatch release = new CountDownLatch(0);

        @GET
        @ConcurrencyLimited(limit = 20)
        public String call() throws InterruptedException {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                release.await(30, TimeUnit.SECONDS);
                return "done";
            } finally {
                inFlight.decrementAndGet();
            }
        }

        @GET
        @Path("failing")
        @ConcurrencyLimited(limit = 1)
        public String failing() {
            throw new IllegalStateException("fails, and must still give its slot back");
        }
    }

    @TestHTTPResource("/slow")
    URI slow;

    @Test
    void neverMoreThanTheLimitInFlightAndTheOthersAre429() {
        Slow.release = new CountDownLatch(1);
        Slow.maxInFlight.set(0); // another test may have switched the limit off
        String tenant = "concurrency-" + UUID.randomUUID();
        ExecutorService executor = Executors.newFixedThreadPool(16);
        HttpClient client = HttpClient.newBuilder().executor(executor).build();
        try {
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                responses.add(client.sendAsync(HttpRequest.newBuilder(slow).header("X-Tenant-Id", tenant)
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            Awaitility.await("80 refusals while 20 calls hold their slots").atMost(Duration.ofSeconds(30))
                    .until(() -> responses.stream().filter(CompletableFuture::isDone).count() == 80);
            assertThat(Slow.inFlight.get()).isEqualTo(20);
            Slow.release.countDown();

            Map<Integer, Integer> byStatus = new TreeMap<>();
            responses.forEach(response -> byStatus.merge(response.join().statusCode(), 1, Integer::sum));
            assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(200, 20, 429, 80));
            assertThat(Slow.maxInFlight.get()).as("most calls in flight at once, seen inside the method").isEqualTo(20);
        } finally {
            Slow.release.countDown();
            executor.shutdownNow();
        }
    }

    @Inject
    RateLimitAdmin admin;

    @Test
    void theKillSwitchTurnsConcurrencyLimitsOffToo() {
        Slow.release = new CountDownLatch(1);
        String tenant = "concurrency-" + UUID.randomUUID();
        ExecutorService executor = Executors.newFixedThreadPool(4);
        HttpClient client = HttpClient.newBuilder().executor(executor).build();
        try {
            List<CompletableFuture<HttpResponse<String>>> holders = holdEverySlot(client, tenant);
            given().header("X-Tenant-Id", tenant).get("/slow").then().statusCode(429);

            admin.setMode(null, Mode.OFF);
            holders.add(call(client, tenant));
            Awaitility.await("a 21st call in flight, the limit being off").atMost(Duration.ofSeconds(30))
                    .until(() -> Slow.inFlight.get() == 21);
            Slow.release.countDown();
            holders.forEach(holder -> assertThat(holder.join().statusCode()).isEqualTo(200));
        } finally {
            Slow.release.countDown();
            admin.clearSwitches(null);
            executor.shutdownNow();
        }
    }

    @Test
    void aFailingCallGivesItsSlotBack() {
        String tenant = "concurrency-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/slow/failing").then().statusCode(500);
        }
    }

    @Test
    void aRefusalIsA429WithRetryAfterAndAProblemBody() {
        Slow.release = new CountDownLatch(1);
        String tenant = "concurrency-" + UUID.randomUUID();
        ExecutorService executor = Executors.newFixedThreadPool(4);
        HttpClient client = HttpClient.newBuilder().executor(executor).build();
        try {
            List<CompletableFuture<HttpResponse<String>>> holders = holdEverySlot(client, tenant);
            // the oldest of the 20 leases (a minute each, the default) ends within the minute, and not within a second
            String retryAfter = given().header("X-Tenant-Id", tenant).get("/slow").then().statusCode(429)
                    .contentType("application/problem+json")
                    .body("retry-after-seconds", notNullValue())
                    .extract().header("Retry-After");
            assertThat(Integer.parseInt(retryAfter)).isBetween(2, 60);
            given().header("X-Tenant-Id", tenant).get("/slow").then().statusCode(429)
                    .contentType("application/problem+json")
                    .body("type", equalTo("https://iana.org/assignments/http-problem-types#quota-exceeded"))
                    .body("violated-policies", hasSize(1));
            Slow.release.countDown();
            holders.forEach(CompletableFuture::join);
        } finally {
            Slow.release.countDown();
            executor.shutdownNow();
        }
    }

    /** The limit's 20 calls of {@code tenant}, held in the method until {@code Slow.release}. */
    private List<CompletableFuture<HttpResponse<String>>> holdEverySlot(HttpClient client, String tenant) {
        List<CompletableFuture<HttpResponse<String>>> holders = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            holders.add(call(client, tenant));
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Slow.inFlight.get() == 20);
        return holders;
    }

    private CompletableFuture<HttpResponse<String>> call(HttpClient client, String tenant) {
        return client.sendAsync(HttpRequest.newBuilder(slow).header("X-Tenant-Id", tenant).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
