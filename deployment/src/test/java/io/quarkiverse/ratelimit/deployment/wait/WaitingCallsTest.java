package io.quarkiverse.ratelimit.deployment.wait;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Calls that may wait (maxWait) are not refused while a slot comes within their wait: each proceeds at its reserved
 * slot, one emission interval after the one before (the limit's rate, exactly), on every channel: a blocking endpoint,
 * a {@code Uni} endpoint, a CDI bean outside HTTP. A call whose slot lies further ahead is refused at once.
 * <p>
 * Real time is this test's subject (each call proceeds at its slot, as a client times it): it reads the wall clock on purpose.
 */
class WaitingCallsTest {

    /** 5 per second with a burst of 1: one slot every 200 ms. */
    static final long INTERVAL_MS = 200;

    /**
     * How late a call may still go at its slot. A timer that fires later than this gives its slot up (the call takes the
     * next free one, LateSlotTest proves it), which would leave fewer than the slots within maxWait admitted: with the
     * 10 ms default, one event loop busy for tens of ms (a cold JVM's first waiting calls on a loaded machine) costs a
     * slot. This test is about the slots, not the timers' punctuality, so it allows as much lateness as a busy machine
     * shows and counts it in the spacing it asserts.
     */
    static final long LATE_SLOT_TOLERANCE_MS = 60;

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Carrier.class, Mailer.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.late-slot-tolerance", LATE_SLOT_TOLERANCE_MS + "ms");

    @Inject
    Mailer mailer;

    @Test
    void aBurstOnABlockingEndpointIsServedAtTheLimitsRateWithinMaxWait() throws Exception {
        burstIsServedAtTheRate("/wait/blocking", Carrier.BLOCKING);
    }

    @Test
    void aBurstOnAUniEndpointIsServedAtTheLimitsRateWithinMaxWait() throws Exception {
        burstIsServedAtTheRate("/wait/reactive", Carrier.REACTIVE);
    }

    private static void burstIsServedAtTheRate(String path, Queue<Long> invocations) throws Exception {
        // the waiting path warmed up on another tenant (the second call waits for its slot): a cold JVM's first waiting
        // calls can hold an event loop beyond the late-slot tolerance, and this test is about the slots
        String warmUp = UUID.randomUUID().toString();
        for (int i = 0; i < 2; i++) {
            given().header("X-Tenant-Id", warmUp).get(path).then().statusCode(200);
        }
        invocations.clear();

        String tenant = UUID.randomUUID().toString();
        int calls = 10;
        ExecutorService clients = Executors.newFixedThreadPool(calls);
        CountDownLatch ready = new CountDownLatch(calls);
        try {
            List<Future<long[]>> answers = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                answers.add(clients.submit((Callable<long[]>) () -> {
                    given().get("/wait/ping").then().statusCode(200); // the client warmed up on this thread
                    ready.countDown();
                    ready.await();
                    long sent = System.nanoTime();
                    int status = given().header("X-Tenant-Id", tenant).get(path).statusCode();
                    return new long[] { status, (System.nanoTime() - sent) / 1_000_000 };
                }));
            }
            int admitted = 0;
            int refused = 0;
            for (Future<long[]> answer : answers) {
                long[] statusAndMillis = answer.get();
                if (statusAndMillis[0] == 200) {
                    admitted++;
                    assertThat(statusAndMillis[1]).as("an admitted call is answered within maxWait (1 s) and a margin")
                            .isLessThan(1000 + 500);
                } else {
                    assertThat(statusAndMillis[0]).isEqualTo(429);
                    refused++;
                }
            }
            assertThat(admitted).as("the first at once, then one per 200 ms slot within the 1 s maxWait")
                    .isGreaterThanOrEqualTo(6);
            assertThat(refused).as("slots beyond the maxWait are refused").isPositive();
            assertThat(admitted + refused).isEqualTo(calls);
        } finally {
            clients.shutdownNow();
        }
        List<Long> times = new ArrayList<>(invocations);
        times.sort(null);
        assertThat(times).hasSizeGreaterThanOrEqualTo(6);
        for (int i = 1; i < times.size(); i++) {
            assertThat((times.get(i) - times.get(i - 1)) / 1_000_000)
                    .as("the method runs at its reserved slots, 200 ms apart (less a late timer's tolerated lateness and"
                            + " the dispatch jitter of a busy machine)")
                    .isGreaterThanOrEqualTo(INTERVAL_MS - LATE_SLOT_TOLERANCE_MS - 40);
        }
        // Measured from the first call that waited: the call admitted at once runs when its request reaches the
        // method, which on a busy machine can be tens of ms after Redis decided it, while the waiting calls run on
        // timers set from Redis's decision; anchoring on it would count that dispatch delay as a short interval.
        assertThat((times.get(times.size() - 1) - times.get(1)) / 1_000_000)
                .as("on average one per slot: the limit's rate, exactly")
                .isGreaterThanOrEqualTo((times.size() - 2) * INTERVAL_MS - LATE_SLOT_TOLERANCE_MS - 50);
    }

    @Test
    void aBlockingBeanMethodWaitsOnItsThreadAndIsRefusedAtOnceBeyondItsMaxWait() {
        mailer.send();
        long start = System.nanoTime();
        mailer.send();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited for the next slot, 500 ms on")
                .isGreaterThanOrEqualTo(Duration.ofMillis(400));

        mailer.alert();
        long refusedAt = System.nanoTime();
        try {
            mailer.alert(); // the next slot is 10 s ahead, beyond the 1 s maxWait
            throw new AssertionError("the second alert should be refused");
        } catch (RateLimitExceededException refused) {
            assertThat(Duration.ofNanos(System.nanoTime() - refusedAt)).as("refused at once, not after waiting")
                    .isLessThan(Duration.ofMillis(400));
        }
    }

    @Path("/wait")
    public static class Carrier {

        static final Queue<Long> BLOCKING = new ConcurrentLinkedQueue<>();
        static final Queue<Long> REACTIVE = new ConcurrentLinkedQueue<>();

        @GET
        @Path("ping")
        public String ping() {
            return "pong";
        }

        @GET
        @Path("blocking")
        @RateLimited(limit = 5, window = "1s", algorithm = Algorithm.GCRA, burst = 1, maxWait = "1s")
        public String blocking(@HeaderParam("X-Tenant-Id") String tenant) {
            BLOCKING.add(System.nanoTime());
            return "sent";
        }

        @GET
        @Path("reactive")
        @RateLimited(limit = 5, window = "1s", algorithm = Algorithm.TOKEN_BUCKET, burst = 1, maxWait = "1s")
        public Uni<String> reactive() {
            REACTIVE.add(System.nanoTime());
            return Uni.createFrom().item("sent");
        }
    }

    @ApplicationScoped
    public static class Mailer {

        @RateLimited(limit = 2, window = "1s", algorithm = Algorithm.GCRA, burst = 1, maxWait = "1s", scope = Scope.GLOBAL)
        public void send() {
        }

        @RateLimited(limit = 1, window = "10s", algorithm = Algorithm.GCRA, burst = 1, maxWait = "1s", scope = Scope.GLOBAL)
        public void alert() {
        }
    }
}
