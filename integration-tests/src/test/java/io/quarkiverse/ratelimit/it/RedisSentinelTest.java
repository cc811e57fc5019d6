package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;
import io.quarkiverse.ratelimit.localredis.LocalRedisSentinel;
import io.quarkiverse.ratelimit.runtime.lease.LeasedCounts;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@code quarkus.redis.client-type=sentinel}: exact limits on the master, and when the master dies the Sentinels promote
 * the replica; meanwhile every request is answered (local fallback, never a 5xx), and once the breaker's probe reaches
 * the new master, exact limiting resumes where the replicated count left it.
 */
@QuarkusTest
@WithTestResource(value = RedisSentinelResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class RedisSentinelTest {

    @InjectRedisSentinel
    LocalRedisSentinel sentinel;

    @Inject
    LimiterStatus limiter;

    @Inject
    InvalidationChannel invalidations;

    @Inject
    LeasedCounts leases;

    @TestHTTPResource("/exact/sliding")
    URI sliding;

    @Test
    void decisionsContinueThroughAFailoverAndExactLimitingResumesOnTheNewMaster() {
        String burst = "sentinel-" + UUID.randomUUID();
        long degradedBefore = limiter.decisionsWithoutRedis();
        assertThat(ConcurrentRequests.send(120, i -> sliding, burst)).containsExactlyInAnyOrderEntriesOf(
                Map.of(200, ExactnessResource.LIMIT, 429, 120 - ExactnessResource.LIMIT));
        assertThat(limiter.decisionsWithoutRedis()).isEqualTo(degradedBefore);

        String tenant = "sentinel-" + UUID.randomUUID();
        assertThat(ConcurrentRequests.send(10, i -> sliding, tenant)).isEqualTo(Map.of(200, 10));
        // what a slice of the ten left unused goes back when its lease ends: on the master, before it dies (given back
        // to a dead master, it would stay counted until the window ends, the safe side)
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> leases.unitsHeld() == 0);
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> offset(sentinel.master().command("INFO", "replication"), "master_repl_offset:") == offset(
                        sentinel.replica().command("INFO", "replication"), "slave_repl_offset:"));

        sentinel.master().kill();

        Map<Integer, Integer> duringFailover = new HashMap<>();
        Awaitility.await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(50)).until(() -> {
            int status = given().header("X-Tenant-Id", "sentinel-" + UUID.randomUUID()).get("/failure/local")
                    .statusCode();
            duringFailover.merge(status, 1, Integer::sum);
            return sentinel.currentMasterPort() == sentinel.replica().port()
                    && limiter.circuit() == State.CLOSED;
        });
        assertThat(duringFailover.keySet()).as("statuses answered during the failover: " + duringFailover)
                .containsOnly(200);

        // slices are used again once the instance hears the invalidations on the new master
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(invalidations::live);
        long degradedAfterFailover = limiter.decisionsWithoutRedis();
        assertThat(ConcurrentRequests.send(100, i -> sliding, tenant))
                .as("the 40 left of 50, counted on the promoted replica")
                .containsExactlyInAnyOrderEntriesOf(Map.of(200, ExactnessResource.LIMIT - 10,
                        429, 100 - (ExactnessResource.LIMIT - 10)));
        assertThat(limiter.decisionsWithoutRedis()).isEqualTo(degradedAfterFailover);
    }

    private static long offset(Object info, String field) {
        for (String line : ((String) info).split("\r?\n")) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim());
            }
        }
        return -1;
    }
}
