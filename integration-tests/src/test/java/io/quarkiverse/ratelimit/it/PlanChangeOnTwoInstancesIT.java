package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A tenant's limit changed mid-window on one of two packaged instances (an operator's run-time limit: an upgrade, then
 * back) keeps what the tenant used, for every algorithm: 40 of 50 used, raised to 1,000, exactly 960 more across both
 * instances; raised, 60 more used, then back to 50: refused at once where it changed and within the invalidation bound
 * on the other instance.
 */
class PlanChangeOnTwoInstancesIT {

    static final int USED = 40;
    static final int RAISED = 1000;
    /** The documented bound for a run-time limit to reach the other instances (multi-tenancy page). */
    static final Duration INVALIDATION_BOUND = Duration.ofSeconds(1);
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final Fleet fleet = Fleet.of(AppInstance::startTwoWithOperator);

    @ParameterizedTest
    @ValueSource(strings = { "sliding", "fixed", "log", "token-bucket", "gcra" })
    void anUpgradeOnOneInstanceLeavesExactlyTheRestOnBoth(String endpoint) {
        String tenant = "upgraded-" + UUID.randomUUID();
        assertThat(ConcurrentRequests.send(USED, i -> uri(i % 2, "/exact/" + endpoint), tenant))
                .isEqualTo(Map.of(200, USED));

        setLimit(0, tenant, endpoint, RAISED);
        awaitAdmitted(1, endpoint, tenant); // the other instance heard it: one of the rest
        assertThat(ConcurrentRequests.send(RAISED, i -> uri(i % 2, "/exact/" + endpoint), tenant))
                .as("what Enterprise leaves after Starter's 40, over both instances")
                .isEqualTo(Map.of(200, RAISED - USED - 1, 429, USED + 1));
    }

    @ParameterizedTest
    @ValueSource(strings = { "sliding", "fixed", "log", "token-bucket", "gcra" })
    void aDowngradeOnOneInstanceRefusesAtOnceOnBoth(String endpoint) {
        String tenant = "downgraded-" + UUID.randomUUID();
        setLimit(0, tenant, endpoint, RAISED);
        assertThat(ConcurrentRequests.send(100, i -> uri(0, "/exact/" + endpoint), tenant)).isEqualTo(Map.of(200, 100));

        removeLimit(1, tenant, endpoint);
        for (int i = 0; i < 5; i++) {
            assertThat(status(1, endpoint, tenant)).as("100 used, back to 50: refused where it changed").isEqualTo(429);
        }
        Awaitility.await("refused on the other instance").atMost(INVALIDATION_BOUND).pollInterval(Duration.ofMillis(5))
                .until(() -> status(0, endpoint, tenant) == 429);
    }

    /** The policy an operator names for an endpoint of {@link ExactnessResource}: its limit's name, class.method. */
    private static String policy(String endpoint) {
        return "ExactnessResource." + (endpoint.equals("token-bucket") ? "tokenBucket" : endpoint);
    }

    private static void setLimit(int instance, String tenant, String endpoint, int limit) {
        assertThat(send(HttpRequest.newBuilder(limitUri(instance, tenant, endpoint))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"limit\": " + limit + "}")))).isEqualTo(204);
    }

    private static void removeLimit(int instance, String tenant, String endpoint) {
        assertThat(send(HttpRequest.newBuilder(limitUri(instance, tenant, endpoint)).DELETE())).isIn(200, 204);
    }

    private static URI limitUri(int instance, String tenant, String endpoint) {
        return uri(instance, "/q/rate-limit/tenants/" + tenant + "/limits/" + policy(endpoint));
    }

    /** Polls the instance until it admits a call (a refused one counts nothing). */
    private static void awaitAdmitted(int instance, String endpoint, String tenant) {
        Awaitility.await("admitted on instance " + instance).atMost(INVALIDATION_BOUND).pollInterval(Duration.ofMillis(2))
                .until(() -> status(instance, endpoint, tenant) == 200);
    }

    private static int status(int instance, String endpoint, String tenant) {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri(instance, "/exact/" + endpoint)).header("X-Tenant-Id", tenant)
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.header("Authorization", ops()).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static URI uri(int instance, String path) {
        return fleet.instance(instance).uri().resolve(path);
    }

    private static String ops() {
        return "Basic " + Base64.getEncoder().encodeToString("ops:ops".getBytes(StandardCharsets.UTF_8));
    }
}
