package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Leases on two packaged instances, where each slice may hold a quarter of what is left: a burst sent all at once, a
 * few calls beyond the limit, is admitted exactly the limit in the burst itself. When Redis refuses, the slices still
 * hold the last units and few calls come after to spend them; a call Redis refuses asks what the other instance's
 * slices hold, recalls them and waits for them, again while that instance leases some of what came back. The
 * instances are warmed up first: on cold JVMs sharing two cores with the test, a recalled unit can still come back
 * after a refused call's wait (the first burst was exact in 5 of 5 runs on a quiet machine, not in every CI run).
 */
class TwoInstancesLeasingIT {

    static final int LIMIT = LeasedResource.LIMIT;
    static final int BEYOND = LIMIT / 20;

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> AppInstance.startTwo(redis, "quarkus.rate-limit.leases.enabled=true"));

    @BeforeAll
    static void warmUp() {
        for (String endpoint : List.of("fixed", "sliding")) {
            burst(endpoint, "warm-up-" + UUID.randomUUID());
        }
    }

    /** The claim holds only where Redis decided: none of the calls may have been left to a failure mode. */
    @AfterEach
    void everyCallWasDecidedByRedisOrALease() {
        for (AppInstance instance : fleet.instances()) {
            Map<String, Object> data = given().get(instance.uri().resolve("/q/health/ready")).jsonPath()
                    .getMap("checks.find { it.name == 'rate-limit' }.data");
            assertThat(((Number) data.get("decisions-without-redis")).longValue())
                    .as("decided by a failure mode (Redis too slow for the machine)")
                    .isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "fixed", "sliding", "fixed", "sliding" })
    void aBurstAllAtOnceIsAdmittedExactlyTheLimit(String endpoint) {
        assertThat(burst(endpoint, "all-at-once-" + UUID.randomUUID())).as("exactly the limit, in the burst itself")
                .containsExactlyInAnyOrderEntriesOf(Map.of(200, LIMIT, 429, BEYOND));
    }

    private static Map<Integer, Integer> burst(String endpoint, String tenant) {
        return ConcurrentRequests.send(LIMIT + BEYOND, i -> fleet.instance(i % 2).uri().resolve("/leased/" + endpoint),
                tenant);
    }
}
