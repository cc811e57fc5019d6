package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reserve, then settle, on the production shape: two packaged instances share a model's token budget (1,000 tokens a
 * 10 s window per tenant, {@link TokenBudgetResource}). Concurrent calls estimate 100 tokens and really cost 20 to 400:
 * the estimates admitted never exceed the budget, the settlements account every token used, an overrun is debt the next
 * window starts with, and the reservations of an instance killed mid-call stay counted at their estimates, once. An
 * operator sees the budget, a limit made in code, from either instance.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TokenBudgetOnAFleetIT {

    @RegisterExtension
    static final Fleet fleet = Fleet.of(AppInstance::startTwoWithOperator);

    private static final Pattern STATUS = Pattern.compile("remaining=(\\d+) inDebt=(\\w+) resetMs=(\\d+)");

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * The budget is a limit made in code ({@code RateLimit.of}): an operator names it as an annotation's, on an instance
     * none of whose calls used it (this test runs first: the other tests call both instances), and sees the debt.
     */
    @Test
    @Order(1)
    void anOperatorSeesALimitMadeInCodeThatAnotherInstanceUsed() throws Exception {
        String tenant = "tokens-" + UUID.randomUUID();
        awaitAFreshWindow();
        assertThat(client.send(post(fleet.instance(0).uri(), tenant, "estimate=100&cost=1300&answer-ms=0"),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

        HttpResponse<String> status = client.send(HttpRequest.newBuilder(fleet.instance(1).uri()
                .resolve("/q/rate-limit/tenants/" + tenant + "/policies/token-budget"))
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString("ops:ops".getBytes()))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        assertThat(status.body()).contains("\"name\":\"token-budget\"", "\"limit\":1000", "\"remaining\":0",
                "\"inDebt\":true");
    }

    @Test
    void concurrentCallsReserveWithinTheBudgetAndSettleEveryTokenTheyUsed() throws Exception {
        String tenant = "tokens-" + UUID.randomUUID();
        awaitAFreshWindow();
        Random random = new Random();
        List<Long> costs = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long cost = 20 + random.nextInt(381);
            costs.add(cost);
            // the answers take 1.5 s: every reservation is decided before any settlement gives tokens back
            calls.add(client.sendAsync(post(fleet.instance(i % 2).uri(), tenant, "estimate=100&cost=" + cost
                    + "&answer-ms=1500"), HttpResponse.BodyHandlers.ofString()));
        }
        long admitted = 0;
        long settledTotal = 0;
        long lastDecision = 0;
        long firstSettlement = Long.MAX_VALUE;
        for (int i = 0; i < calls.size(); i++) {
            HttpResponse<String> answer = calls.get(i).join();
            lastDecision = Math.max(lastDecision, header(answer, "X-Decided-At"));
            if (answer.statusCode() == 200) {
                admitted++;
                settledTotal += costs.get(i);
                firstSettlement = Math.min(firstSettlement, header(answer, "X-Settled-At"));
            } else {
                assertThat(answer.statusCode()).isEqualTo(429);
            }
        }
        assertThat(lastDecision).as("every reservation was decided before the first settlement")
                .isLessThan(firstSettlement);
        assertThat(admitted).as("estimates of 100 admitted within the budget of 1,000 and up to it, on two instances")
                .isEqualTo(10);

        Status after = status(tenant, 0);
        System.out.printf("token budget on two instances: 50 calls, %d admitted, %d tokens settled; after: %s%n",
                admitted, settledTotal, after);
        assertThat(after.remaining()).as("every token settled is counted, no estimate left over")
                .isEqualTo(Math.max(0, 1000 - settledTotal));
        assertThat(after.inDebt()).as("beyond the budget only by what the calls in flight used beyond it")
                .isEqualTo(settledTotal > 1000);

        long debt = Math.max(0, settledTotal - 1000);
        long nextWindowIn = after.resetMs();
        Awaitility.await("the next window").pollDelay(Duration.ofMillis(nextWindowIn + 250))
                .atMost(Duration.ofMillis(nextWindowIn + 5000)).untilAsserted(() -> {
                    Status next = status(tenant, 1);
                    assertThat(next.remaining()).as("the next window starts with the debt: %d tokens", debt)
                            .isEqualTo(Math.max(0, 1000 - debt));
                    assertThat(next.inDebt()).as("still in debt when the debt is beyond a whole window")
                            .isEqualTo(debt > 1000);
                });
    }

    @Test
    void theReservationsOfAKilledInstanceStayCountedAtTheirEstimatesOnce() throws Exception {
        String tenant = "tokens-killed-" + UUID.randomUUID();
        awaitAFreshWindow();
        AppInstance doomed = AppInstance.start(fleet.redis());
        try {
            doomed.awaitReady();
            for (int i = 0; i < 5; i++) { // answers that never come: the instance dies first
                client.sendAsync(post(doomed.uri(), tenant, "estimate=100&cost=10&answer-ms=60000"),
                        HttpResponse.BodyHandlers.discarding());
            }
            Awaitility.await("five reservations of 100").atMost(Duration.ofSeconds(10))
                    .until(() -> status(tenant, 0).remaining() == 500);
        } finally {
            doomed.process().destroyForcibly().waitFor();
        }
        assertThat(status(tenant, 0).remaining()).as("the killed instance's estimates stay counted").isEqualTo(500);
        int admitted = 0;
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> answer = client.send(post(fleet.instance(i % 2).uri(), tenant,
                    "estimate=100&cost=100&answer-ms=0"), HttpResponse.BodyHandlers.ofString());
            admitted += answer.statusCode() == 200 ? 1 : 0;
        }
        assertThat(admitted).as("the rest of the budget, no more, no less: nothing leaked, nothing charged twice")
                .isEqualTo(5);
    }

    /**
     * Waits, if need be, for a window with at least 6 s left, so a test's calls all fall in one window: windows are
     * aligned to the Unix epoch on Redis's clock, so every tenant's window ends when the status of one nobody uses says.
     */
    private void awaitAFreshWindow() {
        Awaitility.await("a window with 6 s left").atMost(Duration.ofSeconds(12)).pollInterval(Duration.ofMillis(50))
                .until(() -> status("nobody", 0).resetMs() > 6000);
    }

    private Status status(String tenant, int instance) throws Exception {
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(
                fleet.instance(instance).uri().resolve("/token-budget/status")).header("X-Tenant-Id", tenant).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher status = STATUS.matcher(answer.body());
        assertThat(status.matches()).as(answer.body()).isTrue();
        return new Status(Long.parseLong(status.group(1)), Boolean.parseBoolean(status.group(2)),
                Long.parseLong(status.group(3)));
    }

    private static HttpRequest post(URI instance, String tenant, String query) {
        return HttpRequest.newBuilder(instance.resolve("/token-budget?" + query)).header("X-Tenant-Id", tenant)
                .timeout(Duration.ofSeconds(70)).POST(HttpRequest.BodyPublishers.noBody()).build();
    }

    private static long header(HttpResponse<?> answer, String name) {
        return Long.parseLong(answer.headers().firstValue(name).orElseThrow(() -> new AssertionError(
                "no " + name + " on a " + answer.statusCode())));
    }

    private record Status(long remaining, boolean inDebt, long resetMs) {
    }
}
