package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fleet of eight packaged instances that loses its Redis: none was told the fleet's size
 * ({@code local-fallback.expected-instances} unset), yet each had heard from Redis that eight instances share the limits,
 * so the {@code local} failure mode allows each an eighth of a limit, and the fleet about the limit, not eight times it.
 */
class EightInstancesWithoutRedisIT {

    static final int INSTANCES = 8;

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> {
        List<AppInstance> instances = IntStream.range(0, INSTANCES)
                .mapToObj(i -> AppInstance.start(redis, "quarkus.rate-limit.decision-timeout=300ms",
                        "quarkus.rate-limit.circuit-breaker.failure-threshold=1"))
                .toList();
        instances.forEach(AppInstance::awaitReady);
        return instances;
    });

    @Test
    void withRedisGoneEachInstanceAllowsItsShareOfTheFleetItLastHeard() {
        for (AppInstance instance : fleet.instances()) {
            await("instance " + instance.uri() + " hears the whole fleet").atMost(Duration.ofSeconds(20))
                    .until(() -> liveInstances(instance) == INSTANCES);
        }
        fleet.redis().kill();

        String tenant = "eight-instances-" + UUID.randomUUID();
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(400,
                i -> fleet.instance(i % INSTANCES).uri().resolve("/exact/fixed"), tenant);

        int share = ExactnessResource.LIMIT / INSTANCES;
        assertThat(byStatus).as("%d each of the limit of %d on each of %d instances; never a 5xx", share,
                ExactnessResource.LIMIT, INSTANCES).containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                200, share * INSTANCES,
                                429, 400 - share * INSTANCES));
    }

    /** The live instances as the instance last heard them from Redis, from its readiness check. */
    private static int liveInstances(AppInstance instance) {
        return given().get(instance.uri().resolve("/q/health/ready")).jsonPath()
                .getInt("checks.find { it.name == 'rate-limit' }.data['live-instances']");
    }
}
