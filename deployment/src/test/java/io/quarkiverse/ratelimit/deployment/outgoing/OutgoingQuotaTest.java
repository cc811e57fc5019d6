package io.quarkiverse.ratelimit.deployment.outgoing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @RateLimited} on a REST Client method keeps the outgoing calls within the carrier's quota, waiting for a slot;
 * when the carrier still answers 429 with {@code Retry-After}, the limit is paused until then (fleet-wide, in Redis):
 * the next call waits for the pause instead of hammering the carrier.
 * <p>
 * Real time is this test's subject (the carrier counts its quota and reads its retry time on the wall clock): it reads the wall
 * clock on purpose.
 */
class OutgoingQuotaTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(CarrierStub.class, CarrierClient.class))
            .overrideConfigKey("quarkus.rest-client.carrier.url", "http://localhost:${quarkus.http.test-port:8081}");

    @RestClient
    CarrierClient carrier;

    @Test
    void aRetryAfterFromTheCarrierPausesTheQuotaUntilThen() {
        CarrierStub.TOO_MANY_FIRST.set(1);
        assertThatThrownBy(() -> carrier.label().await().indefinitely()).isInstanceOf(WebApplicationException.class)
                .satisfies(failure -> assertThat(((WebApplicationException) failure).getResponse().getStatus())
                        .isEqualTo(429));
        assertThat(carrier.label().await().indefinitely()).isEqualTo("label");

        List<Long> calls = List.copyOf(CarrierStub.LABELS);
        assertThat(calls).hasSize(2);
        assertThat(Duration.ofNanos(calls.get(1) - calls.get(0)))
                .as("the second call reached the carrier only after its Retry-After of 2 s")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void aBlockingCallIsPausedTooThenCallsWithinTheQuotaWaitForTheirTurn() {
        CarrierStub.RATES.clear();
        assertThatThrownBy(() -> carrier.rates()).as("the stub answers the first call 429, Retry-After: 1")
                .isInstanceOf(WebApplicationException.class);
        for (int i = 0; i < 3; i++) {
            assertThat(carrier.rates().getStatus()).isEqualTo(200);
        }
        List<Long> calls = List.copyOf(CarrierStub.RATES);
        assertThat(Duration.ofNanos(calls.get(1) - calls.get(0))).as("paused for the Retry-After of 1 s")
                .isGreaterThanOrEqualTo(Duration.ofMillis(900));
        for (int i = 2; i < calls.size(); i++) {
            assertThat(Duration.ofNanos(calls.get(i) - calls.get(i - 1)))
                    .as("then one call at a time at the quota's rate, 4 a second (less the timers' jitter)")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(150));
        }
    }

    @Test
    void callsThatHoldASlotWaitForTheEndOfThePauseWhenItComesWithinTheirMaxWait() {
        assertThat(carrier.ping()).as("the client connected and warmed up: the first call answers at once").isEqualTo("pong");
        List<Uni<String>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // slots at 0, 0.5, 1 and 1.5 s; the first is answered 429, Retry-After: 3
            calls.add(carrier.quote().onFailure(RateLimitExceededException.class).recoverWithItem("refused")
                    .onFailure(WebApplicationException.class).recoverWithItem("429"));
        }
        List<String> answers = Uni.join().all(calls).andFailFast().await().indefinitely();
        assertThat(answers).as("the three queued calls took slots after the pause, within their maxWait of 6 s")
                .containsExactlyInAnyOrder("429", "quote", "quote", "quote");

        List<Long> arrivals = List.copyOf(CarrierStub.QUOTES);
        assertThat(arrivals).hasSize(4);
        assertThat(Duration.ofNanos(arrivals.get(1) - arrivals.get(0))).as("nothing reached the carrier in the pause")
                .isGreaterThanOrEqualTo(Duration.ofMillis(2900));
        for (int i = 2; i < arrivals.size(); i++) {
            assertThat(Duration.ofNanos(arrivals.get(i) - arrivals.get(i - 1)))
                    .as("then one call at a time at the quota's rate, 2 a second (less the timers' jitter)")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(400));
        }
    }

    @Test
    void callsThatHoldASlotAreRefusedAtOnceWhenThePauseOutlastsTheirMaxWait() {
        assertThat(carrier.ping()).isEqualTo("pong");
        long started = System.nanoTime();
        List<Uni<Long>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // slots at 0, 0.5, 1 and 1.5 s; the first is answered 429, Retry-After: 10
            calls.add(carrier.order().replaceWith(0L).onFailure(RateLimitExceededException.class)
                    .recoverWithItem(() -> System.nanoTime()).onFailure(WebApplicationException.class)
                    .recoverWithItem(-1L));
        }
        List<Long> answers = Uni.join().all(calls).andFailFast().await().indefinitely();
        assertThat(answers).filteredOn(answer -> answer > 0).as("refused: a slot after the pause is beyond 2 s")
                .hasSize(3).allSatisfy(refusedAt -> assertThat(Duration.ofNanos(refusedAt - started))
                        .as("refused when the pause was heard, before the second call's slot at 0.5 s")
                        .isLessThan(Duration.ofMillis(450)));
        assertThat(CarrierStub.ORDERS).as("the carrier saw the first call only").hasSize(1);
    }

    @Path("/carrier")
    public static class CarrierStub {

        static final Queue<Long> LABELS = new ConcurrentLinkedQueue<>();
        static final Queue<Long> RATES = new ConcurrentLinkedQueue<>();
        static final Queue<Long> QUOTES = new ConcurrentLinkedQueue<>();
        static final Queue<Long> ORDERS = new ConcurrentLinkedQueue<>();
        static final AtomicInteger TOO_MANY_FIRST = new AtomicInteger();
        static final AtomicInteger RATES_CALLS = new AtomicInteger();

        @POST
        @Path("labels")
        public Response label() {
            LABELS.add(System.nanoTime());
            if (TOO_MANY_FIRST.getAndDecrement() > 0) {
                return Response.status(429).header("Retry-After", "2").build();
            }
            return Response.ok("label").build();
        }

        @POST
        @Path("ping")
        public String ping() {
            return "pong";
        }

        @POST
        @Path("quotes")
        public Response quotes() {
            QUOTES.add(System.nanoTime());
            if (QUOTES.size() == 1) {
                return Response.status(429).header("Retry-After", "3").build();
            }
            return Response.ok("quote").build();
        }

        @POST
        @Path("orders")
        public Response orders() {
            ORDERS.add(System.nanoTime());
            return Response.status(429).header("Retry-After", "10").build();
        }

        @POST
        @Path("rates")
        public Response rates() {
            RATES.add(System.nanoTime());
            if (RATES_CALLS.getAndIncrement() == 0) {
                return Response.status(429).header("Retry-After", "1").build();
            }
            return Response.ok("rates").build();
        }
    }

    @RegisterRestClient(configKey = "carrier")
    @Path("/carrier")
    public interface CarrierClient {

        @POST
        @Path("labels")
        @RateLimited(limit = 10, window = "1s", algorithm = Algorithm.GCRA, maxWait = "5s", scope = Scope.GLOBAL)
        Uni<String> label();

        @POST
        @Path("ping")
        String ping();

        @POST
        @Path("quotes")
        /*
         * The last queued call's slot comes about 4 s after the calls (the 3 s pause, then one slot each 0.5 s): a maxWait
         * of 6 s leaves it room for a timer or two that fire too late on a busy machine (each gives its slot up and takes
         * the next, 0.5 s on) without making the assertion about the pause depend on the timers' punctuality.
         */
        @RateLimited(limit = 2, window = "1s", burst = 1, algorithm = Algorithm.TOKEN_BUCKET, maxWait = "6s", scope = Scope.GLOBAL)
        Uni<String> quote();

        @POST
        @Path("orders")
        @RateLimited(limit = 2, window = "1s", burst = 1, algorithm = Algorithm.TOKEN_BUCKET, maxWait = "2s", scope = Scope.GLOBAL)
        Uni<String> order();

        @POST
        @Path("rates")
        @RateLimited(limit = 4, window = "1s", algorithm = Algorithm.TOKEN_BUCKET, maxWait = "5s", scope = Scope.GLOBAL)
        Response rates();
    }
}
