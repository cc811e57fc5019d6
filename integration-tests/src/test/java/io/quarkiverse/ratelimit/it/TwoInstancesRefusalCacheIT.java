package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Exact on a fleet with the refusal cache on (the default): two packaged instances share one Redis, and a change made
 * on one instance that gives a tenant room again (a refund, a programmatic refund, an operator's reset, a raised
 * run-time limit) ends the refusals the other instance holds for that tenant. So failed calls consume nothing, and
 * exactly the limit of good calls is admitted in all.
 */
class TwoInstancesRefusalCacheIT {

    private static final int LIMIT = 10;
    /** How long an invalidation may take to reach the other instance on a healthy fleet. */
    private static final Duration INVALIDATION_BOUND = Duration.ofSeconds(1);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final Fleet fleet = Fleet.of(AppInstance::startTwoWithOperator);

    @Test
    void declinedPaymentsOnEitherInstanceConsumeNothing() {
        exactlyTheLimitOfGoodCalls("/payments", "declined");
    }

    @Test
    void aProvidersServerErrorsOnEitherInstanceConsumeNothing() {
        exactlyTheLimitOfGoodCalls("/payments/through-provider", "unavailable");
    }

    @Test
    void aBouncedEmailRefundedOnOneInstanceIsSentOnTheOther() {
        String tenant = tenant();
        exhaust(0, "/emails", tenant);
        assertThat(post(1, "/emails/bounced", tenant)).isEqualTo(204);
        admittedAgainOnTheFirstInstance("/emails", tenant, 1);
    }

    @Test
    void anOperatorsResetOnOneInstanceGivesTheOtherRoomAtOnce() {
        String tenant = tenant();
        exhaust(0, "/payments", tenant);
        assertThat(send(HttpRequest.newBuilder(uri(1, "/q/rate-limit/tenants/" + tenant + "/policies/payments/counters"))
                .header("Authorization", ops()).DELETE())).isEqualTo(200);
        admittedAgainOnTheFirstInstance("/payments", tenant, LIMIT);
    }

    @Test
    void aRunTimeLimitRaisedOnOneInstanceAppliesOnTheOtherAtOnce() {
        String tenant = tenant();
        exhaust(0, "/payments", tenant);
        assertThat(send(HttpRequest.newBuilder(uri(1, "/q/rate-limit/tenants/" + tenant + "/limits/payments"))
                .header("Authorization", ops()).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"limit\": " + (LIMIT + 1) + "}")))).isEqualTo(204);
        admittedAgainOnTheFirstInstance("/payments", tenant, 1);
    }

    /**
     * 200 concurrent calls over both instances, half failing in a way the limit refunds, then good calls until the
     * limit is reached: exactly {@link #LIMIT} good calls admitted in all, and none after.
     */
    private static void exactlyTheLimitOfGoodCalls(String path, String failing) {
        String tenant = tenant();
        List<HttpRequest> burst = new ArrayList<>();
        List<Boolean> good = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            boolean fails = i % 4 < 2; // both instances see failing and good calls
            burst.add(HttpRequest.newBuilder(uri(i % 2, path + "?" + failing + "=" + fails))
                    .header("X-Tenant-Id", tenant).POST(HttpRequest.BodyPublishers.noBody()).build());
            good.add(!fails);
        }
        List<Integer> statuses = ConcurrentRequests.sendAll(burst);
        AtomicInteger admittedGood = new AtomicInteger();
        for (int i = 0; i < statuses.size(); i++) {
            if (good.get(i) && statuses.get(i) == 200) {
                admittedGood.incrementAndGet();
            }
        }
        System.out.printf("%s, 200 concurrent calls half failing: %s good admitted; statuses %s%n", path,
                admittedGood, statuses.stream().distinct().toList());
        assertThat(admittedGood.get()).as("good calls admitted during the burst").isLessThanOrEqualTo(LIMIT);

        // the failed calls were given back, on both instances: the first takes the rest of the limit, within the
        // bound even if it held a refusal from the burst; then neither admits one more
        int rest = LIMIT - admittedGood.get();
        if (rest > 0) {
            admittedAgainOnTheFirstInstance(path, tenant, rest);
        }
        for (int i = 0; i < 10; i++) {
            assertThat(post(i % 2, path, tenant)).as("a good call beyond the limit").isEqualTo(429);
        }
    }

    /** The limit's calls on the first instance, then one refused there (and held by its refusal cache). */
    private static void exhaust(int instance, String path, String tenant) {
        for (int i = 0; i < LIMIT; i++) {
            assertThat(post(instance, path, tenant)).isEqualTo(200);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(post(instance, path, tenant)).isEqualTo(429);
        }
    }

    /** Within the bound, the first instance admits again: {@code units} calls, and not one more. */
    private static void admittedAgainOnTheFirstInstance(String path, String tenant, int units) {
        Awaitility.await("admitted on the first instance").atMost(INVALIDATION_BOUND)
                .pollInterval(Duration.ofMillis(2))
                .until(() -> post(0, path, tenant) == 200);
        for (int i = 1; i < units; i++) {
            assertThat(post(0, path, tenant)).isEqualTo(200);
        }
        assertThat(post(0, path, tenant)).as("the units given back, all taken").isEqualTo(429);
    }

    private static int post(int instance, String path, String tenant) {
        return send(HttpRequest.newBuilder(uri(instance, path)).header("X-Tenant-Id", tenant)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    private static int send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static URI uri(int instance, String path) {
        return fleet.instance(instance).uri().resolve(path);
    }

    private static String tenant() {
        return "fleet-" + UUID.randomUUID();
    }

    private static String ops() {
        return "Basic " + Base64.getEncoder().encodeToString("ops:ops".getBytes(StandardCharsets.UTF_8));
    }
}
