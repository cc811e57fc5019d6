package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/**
 * The carrier gateway end to end: a carrier-integration gateway of two instances (separate JVMs, one Redis) serves tenants on
 * the
 * Enterprise and Starter plans. Their label and rate requests, all sent at once and spread over both instances, are
 * admitted exactly up to each plan's quota, per tenant, per carrier and per endpoint, independently of each other.
 * Then an operator raises one tenant's limit on one instance, and both apply it (the other within the refresh interval).
 */
class CarrierPlatformIT {

    private static final String OPERATOR = "Basic "
            + Base64.getEncoder().encodeToString("operator:operator-password".getBytes(StandardCharsets.UTF_8));

    private static LocalRedisServer redis;
    private static List<AppInstance> instances;

    @BeforeAll
    static void startRedisAndTwoInstances() {
        redis = LocalRedisServer.start();
        String[] properties = {
                // one window for the whole test: an exact count must not straddle the end of a minute
                "quarkus.rate-limit.policies.labels.window=1d",
                "quarkus.rate-limit.policies.rates.window=1d",
                "quarkus.security.users.embedded.users.operator=operator-password",
                "quarkus.security.users.embedded.roles.operator=rate-limit-admin" };
        instances = AppInstance.startTwo(redis, properties);
        // instances in production are warm: one burst first, so that the measured one is not the JIT's first
        admittedByGroup(calls("warm-up", "GET", "warm-up", "rates", 200));
    }

    @AfterAll
    static void stopAll() {
        AppInstance.stopAll(instances, redis);
    }

    @Test
    void eachTenantGetsExactlyItsPlansQuotaPerCarrierEndpointAndAnOperatorRaisesOne() throws Exception {
        // enterprise: labels 200, rates 400; starter: labels 50, rates 20 (application.properties)
        List<Call> calls = new ArrayList<>();
        calls.addAll(calls("acme", "POST", "ups", "labels", 260));
        calls.addAll(calls("acme", "POST", "dhl", "labels", 60));
        calls.addAll(calls("acme", "GET", "ups", "rates", 40));
        calls.addAll(calls("tiny-shop", "POST", "ups", "labels", 90));
        calls.addAll(calls("tiny-shop", "POST", "fedex", "labels", 70));
        calls.addAll(calls("tiny-shop", "GET", "ups", "rates", 40));
        Collections.shuffle(calls, new Random(4));

        assertThat(admittedByGroup(calls)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "acme POST ups labels", 200,
                "acme POST dhl labels", 60,
                "acme GET ups rates", 40,
                "tiny-shop POST ups labels", 50,
                "tiny-shop POST fedex labels", 50,
                "tiny-shop GET ups rates", 20));

        HttpResponse<String> raised = HttpClient.newHttpClient().send(HttpRequest
                .newBuilder(instances.get(0).uri().resolve("/q/rate-limit/tenants/tiny-shop/limits/labels"))
                .header("Authorization", OPERATOR)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"limit\": 80}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(raised.statusCode()).as(raised.body()).isEqualTo(204);
        // the other instance picks the change up within quarkus.rate-limit.run-time-limits.refresh-interval (1 s);
        // its RateLimit-Policy header tells which limit it applied (fedex's 50 are used up: refused until it has 80)
        Awaitility.await("the second instance applies tiny-shop's new limit").atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> policyHeader(instances.get(1), "tiny-shop", "fedex").contains(";q=80;"));

        List<Call> after = new ArrayList<>();
        after.addAll(calls("tiny-shop", "POST", "ups", "labels", 60));
        after.addAll(calls("acme", "POST", "ups", "labels", 20));
        assertThat(admittedByGroup(after)).as("30 more of 80 for tiny-shop on both instances; acme unchanged")
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "tiny-shop POST ups labels", 30,
                        "acme POST ups labels", 0));
    }

    private static String policyHeader(AppInstance instance, String tenant, String carrier) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest
                .newBuilder(instance.uri().resolve("/carriers/" + carrier + "/labels"))
                .header("X-Tenant-Id", tenant)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.discarding()).headers().firstValue("RateLimit-Policy").orElse("");
    }

    private static List<Call> calls(String tenant, String method, String carrier, String endpoint, int count) {
        List<Call> calls = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            calls.add(new Call(tenant, method, carrier, endpoint));
        }
        return calls;
    }

    /** Sends every call at once, alternating instances; the number admitted per group (every other call gets 429). */
    private static Map<String, Integer> admittedByGroup(List<Call> calls) {
        List<HttpRequest> requests = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            URI uri = instances.get(i % 2).uri().resolve("/carriers/" + call.carrier() + "/" + call.endpoint());
            requests.add(HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofSeconds(30))
                    .header("X-Tenant-Id", call.tenant())
                    .method(call.method(), HttpRequest.BodyPublishers.noBody())
                    .build());
        }
        List<Integer> statuses = ConcurrentRequests.sendAll(requests);
        Map<String, Integer> admitted = new TreeMap<>();
        for (int i = 0; i < calls.size(); i++) {
            assertThat(statuses.get(i)).as("status of %s", calls.get(i)).isIn(200, 429);
            admitted.merge(calls.get(i).group(), statuses.get(i) == 200 ? 1 : 0, Integer::sum);
        }
        return admitted;
    }

    private record Call(String tenant, String method, String carrier, String endpoint) {
        String group() {
            return tenant + " " + method + " " + carrier + " " + endpoint;
        }
    }
}
