package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.localredis.LocalRedisCluster;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * One master of a three-master cluster falls silent ({@code SIGSTOP}) or dies ({@code kill -9}): only the decisions of
 * its slots go to their failure mode (a breaker and a timeout per master), within the decision timeout, while tenants
 * on the other masters stay exact throughout; a dead master's tenants are decided exactly again soon after its replica
 * took over, not after the breaker's open period.
 * <p>
 * Run by {@code bench/cluster-master-failure.sh}, not by the build: in about one run of ten a round on a healthy master
 * had calls fail over too (once 2 of 6 calls 3 ms after the kill; once while the client refreshed its slot map from the
 * paused master), which the build must not turn into a red main; the script counts such runs.
 * <p>
 * Real time is this test's subject (how soon each master's tenants are decided again): it reads the wall clock on
 * purpose.
 */
@QuarkusTest
@EnabledIfSystemProperty(named = "cluster-master-failure", matches = "true")
// the client refreshes its slot map from the hosts it was given, with no timeout: a paused host would stall every
// decision meanwhile (see failure-modes.adoc), so it is given the first master only, which this test never breaks
@WithTestResource(value = RedisClusterResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS, initArgs = @ResourceArg(name = "first-master-only", value = "true"))
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterMasterFailureTest {

    /** The cluster's node timeout is 2 s: a replica takes over a few seconds after its master died. */
    private static final Duration BACK_TO_EXACT_WITHIN = Duration.ofSeconds(20);

    @InjectRedisCluster
    LocalRedisCluster cluster;

    @Inject
    LimiterStatus limiter;

    @TestHTTPResource("/failure/closed")
    URI closed;

    @Test
    @Order(1)
    void aSilentMasterFailsOverOnlyItsOwnDecisionsWithinTheTimeout() throws Exception {
        Map<LocalRedisServer, Deque<String>> tenants = freshTenantsOnEachMaster(100);
        List<LocalRedisServer> masters = new ArrayList<>(tenants.keySet());
        LocalRedisServer silent = masters.get(1);
        for (LocalRedisServer master : masters) { // connected to every master (a new connection needs them all)
            assertThat(exactly(tenants.get(master).pop())).as("before the pause").isTrue();
        }
        // paused for less than the cluster's node timeout (2 s): no replica takes over
        silent.pause();
        try {
            long pausedAt = System.nanoTime();
            CompletableFuture<Map<Integer, Integer>> waiting = CompletableFuture
                    .supplyAsync(() -> statuses(tenants.get(silent).pop()));
            for (LocalRedisServer healthy : List.of(masters.get(0), masters.get(2))) {
                assertThat(statuses(tenants.get(healthy).pop())).as("a tenant on a master that answers")
                        .isEqualTo(Map.of(200, FailureModesResource.LIMIT, 429, 1));
            }
            assertThat(waiting.get()).as("fail-closed: Redis never answered")
                    .isEqualTo(Map.of(503, FailureModesResource.LIMIT + 1));
            assertThat(Duration.ofNanos(System.nanoTime() - pausedAt))
                    .as("the decision timeout (1 s) and a margin, although the other masters kept answering")
                    .isLessThan(Duration.ofMillis(1500));
        } finally {
            silent.resume();
        }
        // its breaker opened: exact again once its open period (10 s) has passed
        Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> exactly(tenants.get(silent).pop()));
    }

    @Test
    @Order(2)
    void aDeadMasterSendsOnlyItsOwnSlotsToTheFailureMode() {
        Map<LocalRedisServer, Deque<String>> tenants = freshTenantsOnEachMaster(200);
        List<LocalRedisServer> masters = new ArrayList<>(tenants.keySet());
        LocalRedisServer dying = masters.get(2);
        for (LocalRedisServer master : masters) {
            assertThat(exactly(tenants.get(master).pop())).as("before the failure").isTrue();
        }

        long killedAt = System.nanoTime();
        dying.kill();
        Duration backToExact = null;
        while (backToExact == null) {
            Duration since = Duration.ofNanos(System.nanoTime() - killedAt);
            assertThat(since).as("the dead master's tenants decided exactly again").isLessThan(BACK_TO_EXACT_WITHIN);
            for (LocalRedisServer healthy : masters.subList(0, 2)) {
                assertThat(statuses(tenants.get(healthy).pop()))
                        .as("a tenant on a healthy master, %s after another master died", since)
                        .isEqualTo(Map.of(200, FailureModesResource.LIMIT, 429, 1));
            }
            if (exactly(tenants.get(dying).pop())) {
                backToExact = since;
            }
        }
        System.out.printf("CLUSTER-MASTER-KILLED: tenants on the healthy masters exact throughout; the dead master's"
                + " tenants exact again %d ms after the kill%n", backToExact.toMillis());
        assertThat(limiter.circuitStates()).as("a breaker per master").hasSizeGreaterThan(1);
        // the dead master's breaker opened; once it owns no slot it no longer counts
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> limiter.circuit() == CircuitBreakerTransition.State.CLOSED);
        assertThat(limiter.circuitStates()).doesNotContainKey(dying.host() + ":" + dying.port());
    }

    /** The tenant's first six calls: five admitted and the sixth refused, by Redis (fail-closed: no 503). */
    private boolean exactly(String tenant) {
        return statuses(tenant).equals(Map.of(200, FailureModesResource.LIMIT, 429, 1));
    }

    private Map<Integer, Integer> statuses(String tenant) {
        return ConcurrentRequests.send(FailureModesResource.LIMIT + 1, i -> closed, tenant);
    }

    /** {@code perMaster} tenants never seen before whose keys live on each master. */
    private Map<LocalRedisServer, Deque<String>> freshTenantsOnEachMaster(int perMaster) {
        Map<LocalRedisServer, Deque<String>> byMaster = new LinkedHashMap<>();
        List<LocalRedisServer> masters = cluster.currentMasters();
        assertThat(masters).hasSize(3);
        masters.forEach(master -> byMaster.put(master, new ArrayDeque<>()));
        while (byMaster.values().stream().anyMatch(tenants -> tenants.size() < perMaster)) {
            String tenant = "failure-" + UUID.randomUUID();
            Deque<String> onItsMaster = byMaster.get(cluster.masterOf(cluster.slotOf("{" + tenant + "}")));
            if (onItsMaster.size() < perMaster) {
                onItsMaster.add(tenant);
            }
        }
        return byMaster;
    }
}
