package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who is refused most, fleet-wide: three tenants flooding the demo's search (5 per 10 s) at different rates, each
 * across two packaged instances, are listed by the administration endpoint of either instance in order, with their
 * refusals counted from the answers.
 */
class RefusedMostOnTwoInstancesIT {

    @RegisterExtension
    static final Fleet fleet = Fleet.of(AppInstance::startTwoWithOperator);

    @Test
    void threeFloodingTenantsAreListedInOrderWithTheirRefusals() {
        String heavy = tenant(), medium = tenant(), light = tenant();
        long heavyRefused = flood(heavy, 120);
        long mediumRefused = flood(medium, 60);
        long lightRefused = flood(light, 25);
        assertThat(lightRefused).as("every tenant was refused").isPositive();

        for (int instance = 0; instance < 2; instance++) {
            int asked = instance;
            Awaitility.await("both instances reported (a heartbeat)").atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> {
                        List<Map<String, Object>> most = given().auth().preemptive().basic("ops", "ops")
                                .get(fleet.instance(asked).uri().resolve("/q/rate-limit/refused?minutes=5&top=3"))
                                .then().statusCode(200).extract().jsonPath().getList("$");
                        assertThat(most).extracting(caller -> caller.get("tenant")).containsExactly(heavy, medium, light);
                        assertThat(most).extracting(caller -> ((Number) caller.get("refusals")).longValue())
                                .containsExactly(heavyRefused, mediumRefused, lightRefused);
                    });
        }
    }

    /** {@code calls} concurrent searches of {@code tenant} over both instances: how many were refused. */
    private static long flood(String tenant, int calls) {
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(calls,
                i -> fleet.instance(i % 2).uri().resolve("/search"), tenant);
        assertThat(byStatus).containsOnlyKeys(200, 429);
        return byStatus.get(429);
    }

    private static String tenant() {
        return "flooding-" + UUID.randomUUID();
    }
}
