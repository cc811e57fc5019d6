package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The production shape: two instances of the packaged application (separate JVMs) share one Redis. A burst of 300
 * concurrent requests of one tenant, alternating between the instances, is admitted exactly up to the limit.
 */
class TwoInstancesIT {

    @RegisterExtension
    static final Fleet fleet = Fleet.of(AppInstance::startTwo);

    @ParameterizedTest
    @ValueSource(strings = { "sliding", "fixed", "log", "token-bucket", "gcra", "reactive" })
    void twoInstancesAdmitExactlyTheLimitBetweenThem(String endpoint) {
        String tenant = "two-instances-" + UUID.randomUUID();
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(300,
                i -> fleet.instance(i % 2).uri().resolve("/exact/" + endpoint), tenant);

        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(
                200, ExactnessResource.LIMIT,
                429, 300 - ExactnessResource.LIMIT));
    }
}
