package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Run-time switches across two instances of the packaged application: a switch made through one instance's admin
 * endpoint applies on the other within the refresh interval (1 s), so a kill switch rolls the fleet back in about a
 * second; a limit in shadow mode answers a burst over both instances without a refusal yet counts exactly as enforced;
 * a rollout picks the same tenants on both; a failure mode switched to fail-closed holds on both.
 */
class TwoInstancesRolloutIT {

    /** The refresh interval (1 s) plus a margin for a loaded 2-core machine; the requirement is well under 30 s. */
    static final Duration FLEET_BOUND = Duration.ofSeconds(5);
    static final String LIMIT = "ExactnessResource.fixed";

    @RegisterExtension
    static final Fleet fleet = Fleet.of(AppInstance::startTwoWithOperator);
    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void backToConfiguration() throws Exception {
        for (String path : new String[] { "/switches", "/switches/" + LIMIT, "/switches/SearchResource.search" }) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                    .until(() -> admin(fleet.instance(0), "DELETE", path, null) == 204);
        }
    }

    @Test
    void theKillSwitchReachesTheOtherInstanceWithinTheRefreshInterval() throws Exception {
        String tenant = "rollout-" + UUID.randomUUID();
        exhaust(tenant);
        assertThat(call(fleet.instance(1), tenant)).isEqualTo(429);

        assertThat(admin(fleet.instance(0), "PUT", "/switches", "{\"mode\": \"off\"}")).isEqualTo(204);
        assertThat(call(fleet.instance(0), tenant)).as("at once on the instance that switched").isEqualTo(200);
        Awaitility.await().atMost(FLEET_BOUND).pollInterval(Duration.ofMillis(20))
                .until(() -> call(fleet.instance(1), tenant) == 200);

        assertThat(admin(fleet.instance(0), "DELETE", "/switches", null)).isEqualTo(204);
        Awaitility.await().atMost(FLEET_BOUND).pollInterval(Duration.ofMillis(20))
                .until(() -> call(fleet.instance(1), tenant) == 429);
    }

    @Test
    void aShadowLimitServesABurstOverBothInstancesCountsExactlyAndEnforcesWhenSwitched() throws Exception {
        assertThat(admin(fleet.instance(0), "PUT", "/switches/" + LIMIT, "{\"mode\": \"shadow\"}")).isEqualTo(204);
        Awaitility.await().atMost(FLEET_BOUND).until(() -> switchesSeenBy(fleet.instance(1)).contains("shadow"));

        String tenant = "rollout-" + UUID.randomUUID();
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(400,
                i -> fleet.instance(i % 2).uri().resolve("/exact/fixed"), tenant);
        assertThat(byStatus).containsExactly(Map.entry(200, 400));

        assertThat(admin(fleet.instance(1), "PUT", "/switches/" + LIMIT, "{\"mode\": \"enforce\"}")).isEqualTo(204);
        // the limit counted exactly its 50 calls while in shadow: enforced, it refuses at once on both instances
        Awaitility.await().atMost(FLEET_BOUND).pollInterval(Duration.ofMillis(20))
                .until(() -> call(fleet.instance(0), tenant) == 429);
        assertThat(call(fleet.instance(1), tenant)).isEqualTo(429);
    }

    /**
     * A rollout of 25 % enforces the limit for about a quarter of the tenants, and for the same ones on both
     * instances: each of 200 tenants uses up its 5 calls on one instance, then calls each instance once more. The
     * tenants are the same in every run (this Redis is new), so the share is the same in every run: a check of the
     * hash's spread would otherwise fail one run in 370 by chance alone.
     */
    @Test
    void aQuarterRolloutEnforcesTheSameTenantsOnBothInstances() throws Exception {
        assertThat(admin(fleet.instance(0), "PUT", "/switches/SearchResource.search", "{\"rolloutPercentage\": 25}"))
                .isEqualTo(204);
        Awaitility.await().atMost(FLEET_BOUND).until(() -> switchesSeenBy(fleet.instance(1)).contains("25"));

        int enforced = 0;
        for (int t = 0; t < 200; t++) {
            String tenant = "quarter-rollout-" + t;
            for (int i = 0; i < 5; i++) {
                assertThat(call(fleet.instance(0), tenant, "/search")).isEqualTo(200);
            }
            int first = call(fleet.instance(0), tenant, "/search");
            int second = call(fleet.instance(1), tenant, "/search");
            assertThat(second).as("tenant %s on the other instance", tenant).isEqualTo(first);
            if (first == 429) {
                enforced++;
            }
        }
        System.out.printf("a quarter rollout: %d of 200 tenants enforced%n", enforced);
        double sigma = Math.sqrt(200 * 0.25 * 0.75);
        assertThat((double) enforced).as("tenants enforced").isBetween(50 - 3 * sigma, 50 + 3 * sigma);
    }

    /** A failure mode switched to fail-closed at run time: with Redis gone, both instances answer 503. */
    @Test
    void aFailureModeSwitchedToFailClosedAnswers503OnBothInstancesWhenRedisDies() throws Exception {
        assertThat(admin(fleet.instance(0), "PUT", "/switches/" + LIMIT, "{\"failureMode\": \"fail-closed\"}"))
                .isEqualTo(204);
        Awaitility.await().atMost(FLEET_BOUND).until(() -> switchesSeenBy(fleet.instance(1)).contains("fail-closed"));
        fleet.redis().kill();
        try {
            for (AppInstance instance : fleet.instances()) {
                assertThat(call(instance, "rollout-" + UUID.randomUUID())).isEqualTo(503);
            }
        } finally {
            fleet.redis().restart(); // empty: the switch is gone with it, as every instance sees at its next refresh
        }
        for (AppInstance instance : fleet.instances()) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> call(instance, "rollout-" + UUID.randomUUID()) == 200);
        }
    }

    /** Uses up the tenant's 50 calls of the fixed-window limit, over both instances. */
    private void exhaust(String tenant) {
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(ExactnessResource.LIMIT + 10,
                i -> fleet.instance(i % 2).uri().resolve("/exact/fixed"), tenant);
        assertThat(byStatus).containsEntry(200, ExactnessResource.LIMIT);
    }

    private int call(AppInstance instance, String tenant) throws Exception {
        return call(instance, tenant, "/exact/fixed");
    }

    private int call(AppInstance instance, String tenant, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(instance.uri().resolve(path))
                .header("X-Tenant-Id", tenant).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private String switchesSeenBy(AppInstance instance) throws Exception {
        return client.send(adminRequest(instance, "/switches").GET().build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private int admin(AppInstance instance, String method, String path, String json) throws Exception {
        HttpRequest.Builder request = adminRequest(instance, path).header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static HttpRequest.Builder adminRequest(AppInstance instance, String path) {
        return HttpRequest.newBuilder(URI.create(instance.uri() + "/q/rate-limit" + path))
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString("ops:ops".getBytes(StandardCharsets.UTF_8)));
    }
}
