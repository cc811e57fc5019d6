package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** The quota alerts the docs show ({@code QuotaAlerts}) tell a tenant at 80 and at 100 percent of the e-mail quota. */
@QuarkusTest
@TestProfile(QuotaAlertsTest.WithThresholds.class)
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class QuotaAlertsTest {

    /** The docs' configuration: {@code quarkus.rate-limit.thresholds=80,100}. */
    public static class WithThresholds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rate-limit.thresholds", "80,100");
        }
    }

    @Inject
    QuotaAlerts alerts;

    @Test
    void theQuotaAlertsTellATenantAtEightyAndAHundredPercent() {
        String tenant = "alerts-" + UUID.randomUUID();
        for (int i = 0; i < 10; i++) {
            given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(429);

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> alerts.sentTo(tenant).size() >= 2);
        assertThat(alerts.sentTo(tenant)).containsExactlyInAnyOrder(
                tenant + ": You have used 80 % of your quota 'emails': 8 of 10 this period",
                tenant + ": You have used 100 % of your quota 'emails': 10 of 10 this period");
    }
}
