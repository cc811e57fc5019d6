package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Threshold events on a fleet: two packaged instances race one tenant past 50 % and 100 % of its quota with 300
 * concurrent requests; across both, exactly one notice per threshold is sent (the marker in Redis decides which
 * instance reports it).
 */
class TwoInstancesThresholdsIT {

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> AppInstance.startTwo(redis, "quarkus.rate-limit.thresholds=50,100"));

    @Test
    void eachThresholdIsReportedOnceAcrossTheFleet() throws Exception {
        String tenant = "thresholds-" + UUID.randomUUID();
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(300,
                i -> fleet.instance(i % 2).uri().resolve("/exact/sliding"), tenant);
        assertThat(byStatus).containsEntry(200, ExactnessResource.LIMIT);

        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> notices(tenant).size() >= 2);
        List<String> notices = notices(tenant);
        assertThat(notices).hasSize(2);
        assertThat(notices).anyMatch(notice -> notice.contains("used 50 %"))
                .anyMatch(notice -> notice.contains("used 100 %"));
    }

    /** The notices both instances sent the tenant. */
    private static List<String> notices(String tenant) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        List<String> notices = new ArrayList<>();
        for (AppInstance instance : fleet.instances()) {
            String body = client.send(HttpRequest.newBuilder(instance.uri().resolve("/alerts/" + tenant)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            body.lines().filter(line -> !line.isBlank()).forEach(notices::add);
        }
        return notices;
    }
}
