package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.localredis.LocalRedisCluster;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.lease.LeasedCounts;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.RedisTopology;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * {@code quarkus.redis.client-type=cluster} on three masters with replicas: every decision touches one key, so it runs
 * on the master of its tenant's slot (never CROSSSLOT), and the decisions of one master's slots travel together;
 * every master holds the function library and decides with it,
 * and a master that lost it is given it again; and a coordinated failover keeps counting where it was.
 */
@QuarkusTest
@WithTestResource(value = RedisClusterResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class RedisClusterTest {

    @InjectRedisCluster
    LocalRedisCluster cluster;

    @Inject
    LimiterStatus limiter;

    @Inject
    LeasedCounts leases;

    @Inject
    InvalidationChannel invalidations;

    @Inject
    RateLimiter rateLimiter;

    @Inject
    RedisTopology nodes;

    @Inject
    Vertx vertx;

    @TestHTTPResource("/exact/sliding")
    URI sliding;

    @TestHTTPResource("/gateway/labels")
    URI gateway;

    @TestHTTPResource("/carrier-stub/stats")
    URI carrierStats;

    @Test
    void outgoingCallsWaitInOneQueueAndTheCarrierRefusesNothing() throws Exception {
        // the queue in its steady state: decisions recovered while a master lacks the library (another test flushes
        // it) are answered late
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> cluster.currentMasters().stream().allMatch(RedisClusterTest::holdsTheLibrary));
        HttpClient client = HttpClient.newHttpClient();
        // the outgoing path warmed up (the REST client's classes, its connection to the carrier): the first call of a
        // fresh application can take long, and the calls whose turns pass meanwhile take later slots, so fewer would
        // be served within their maxWait
        assertThat(client.send(HttpRequest.newBuilder(gateway).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()).statusCode())
                .as("a first outgoing call").isEqualTo(200);
        long acceptedBefore = carrierCount(client, 1);
        long refusedBefore = carrierCount(client, 2);
        Map<Integer, Integer> byStatus = ConcurrentRequests.sendAll(Collections.nCopies(120,
                HttpRequest.newBuilder(gateway).timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody())
                        .build()))
                .stream().collect(Collectors.toMap(status -> status, status -> 1, Integer::sum, TreeMap::new));
        assertThat(byStatus.keySet()).as("served in turn or refused at once").containsOnly(200, 429);
        assertThat(byStatus.get(200)).as("48 a second for the 2 s maxWait: about 96, at least 80")
                .isGreaterThanOrEqualTo(80);
        assertThat(carrierCount(client, 2) - refusedBefore).as("calls the carrier refused").isZero();
        assertThat(carrierCount(client, 1) - acceptedBefore).isEqualTo(byStatus.get(200).longValue());
    }

    /** Group {@code group} of the carrier stub's stats: 1 accepted, 2 refused. */
    private long carrierCount(HttpClient client, int group) throws Exception {
        String stats = client.send(HttpRequest.newBuilder(carrierStats).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher counts = Pattern.compile("accepted=(\\d+) refused=(\\d+).*").matcher(stats);
        assertThat(counts.matches()).as(stats).isTrue();
        return Long.parseLong(counts.group(group));
    }

    @Test
    void everyMasterHoldsTheFunctionLibraryAndDecidesWithIt() {
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> cluster.currentMasters().stream().allMatch(RedisClusterTest::holdsTheLibrary));
        Map<LocalRedisServer, List<String>> tenantsByMaster = tenantsOnEachMaster(1);
        tenantsByMaster.forEach((master, tenants) -> {
            long before = functionCalls(master);
            assertThat(ConcurrentRequests.send(60, i -> sliding, tenants.get(0)))
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of(200, ExactnessResource.LIMIT, 429, 60 - ExactnessResource.LIMIT));
            assertThat(functionCalls(master) - before).as("FCALLs on master " + master.port()).isPositive();
        });

        // a master that lost its functions (as a new master has none): its tenants stay exact, and it gets them back
        LocalRedisServer master = tenantsByMaster.keySet().iterator().next();
        master.command("FUNCTION", "FLUSH");
        String tenant = tenantsOnEachMaster(2).get(master).get(1);
        assertThat(ConcurrentRequests.send(60, i -> sliding, tenant))
                .containsExactlyInAnyOrderEntriesOf(Map.of(200, ExactnessResource.LIMIT, 429, 60 - ExactnessResource.LIMIT));
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> holdsTheLibrary(master));
    }

    private static boolean holdsTheLibrary(LocalRedisServer master) {
        return !((List<?>) master.command("FUNCTION", "LIST", "LIBRARYNAME", "quarkus_rate_limit_*")).isEmpty();
    }

    /** How many FCALLs a node ran since it started ({@code INFO commandstats}). */
    private static long functionCalls(LocalRedisServer node) {
        Matcher calls = Pattern.compile("cmdstat_fcall:calls=(\\d+)").matcher((String) node.command("INFO", "commandstats"));
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }

    @Test
    void tenantsOnEveryMasterAreLimitedExactly() {
        Map<LocalRedisServer, List<String>> tenantsByMaster = tenantsOnEachMaster(2);
        long degradedBefore = limiter.decisionsWithoutRedis();

        for (List<String> tenants : tenantsByMaster.values()) {
            for (String tenant : tenants) {
                assertThat(ConcurrentRequests.send(120, i -> sliding, tenant)).as(tenant)
                        .containsExactlyInAnyOrderEntriesOf(Map.of(200, ExactnessResource.LIMIT,
                                429, 120 - ExactnessResource.LIMIT));
            }
        }
        assertThat(limiter.decisionsWithoutRedis()).as("calls decided without Redis").isEqualTo(degradedBefore);
        tenantsByMaster.forEach((master, tenants) -> assertThat((Long) master.command("DBSIZE"))
                .as("keys on master " + master.port()).isGreaterThanOrEqualTo(tenants.size()));
    }

    @Test
    void decisionsOfManyTenantsAtOnceAreExactOnEveryMaster() {
        long degradedBefore = limiter.decisionsWithoutRedis();
        List<String> tenants = new ArrayList<>();
        List<HttpRequest> requests = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
            String tenant = "cluster-" + UUID.randomUUID();
            tenants.add(tenant);
            for (int i = 0; i < 60; i++) {
                requests.add(HttpRequest.newBuilder(sliding).header("X-Tenant-Id", tenant).timeout(Duration.ofSeconds(30))
                        .GET().build());
            }
        }
        Collections.shuffle(requests);
        List<Integer> statuses = ConcurrentRequests.sendAll(requests);
        assertThat(statuses.stream().filter(status -> status == 200).count()).as("admitted: 50 for each of 12 tenants")
                .isEqualTo(12L * ExactnessResource.LIMIT);
        assertThat(statuses).containsOnly(200, 429);
        assertThat(limiter.decisionsWithoutRedis()).as("no CROSSSLOT, no call decided without Redis")
                .isEqualTo(degradedBefore);
        for (String tenant : tenants) {
            assertThat(ConcurrentRequests.send(1, i -> sliding, tenant)).as(tenant).isEqualTo(Map.of(429, 1));
        }
    }

    @Test
    void theDecisionsOfTenantsOfOneMasterTravelTogether() {
        Map<LocalRedisServer, List<String>> tenantsByMaster = tenantsOnEachMaster(4);
        List<String> tenants = tenantsByMaster.values().stream().flatMap(List::stream).toList();
        RateLimit limit = RateLimit.of("cluster-batch", 15, Duration.ofHours(1));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> tenants.stream()
                .noneMatch(tenant -> RedisTopology.UNKNOWN.equals(nodes.nodeOf("{" + TenantTags.forTenant(tenant) + "}"))));
        long callsBefore = fcalls();

        CompletableFuture<List<Map.Entry<String, RateLimitDecision>>> all = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(ignored -> {
            List<Uni<Map.Entry<String, RateLimitDecision>>> inFlight = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                for (String tenant : tenants) {
                    inFlight.add(rateLimiter.tryAcquire(limit, tenant).map(decision -> Map.entry(tenant, decision)));
                }
            }
            Uni.join().all(inFlight).andFailFast().subscribe().with(all::complete, all::completeExceptionally);
        });
        List<Map.Entry<String, RateLimitDecision>> decisions = all.orTimeout(30, TimeUnit.SECONDS).join();

        assertThat(decisions).noneMatch(decision -> decision.getValue().degraded());
        Map<String, Long> admitted = decisions.stream().filter(decision -> decision.getValue().allowed())
                .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.counting()));
        tenants.forEach(tenant -> assertThat(admitted).as(tenant).containsEntry(tenant, 15L));
        // 240 decisions of 12 tenants (12 slots) on 3 masters: a few calls per master, not two per slot
        assertThat(fcalls() - callsBefore).as("Redis calls for 240 decisions").isBetween(3L, 12L);
    }

    /** The FCALLs the masters have run. */
    private long fcalls() {
        return cluster.currentMasters().stream().mapToLong(RedisClusterTest::functionCalls).sum();
    }

    @Test
    void anInvalidationPublishedOnAnyNodeEndsTheRefusalsThisInstanceHolds() {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(invalidations::live);
        for (LocalRedisServer publisher : cluster.masters()) {
            String tenant = "cluster-" + UUID.randomUUID();
            for (int i = 0; i < 10; i++) {
                given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(200);
            }
            given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(429);
            LocalRedisServer owner = cluster.masterOf(cluster.slotOf("{" + TenantTags.forTenant(tenant) + "}"));
            @SuppressWarnings("unchecked")
            List<String> keys = (List<String>) owner.command("KEYS", "rate-limit:{" + TenantTags.forTenant(tenant) + "}*");
            assertThat(keys).hasSize(1);
            owner.command("DEL", keys.get(0));
            // refused from this instance's cache until told
            given().header("X-Tenant-Id", tenant).post("/emails").then().statusCode(429);

            publisher.command("PUBLISH", invalidations.channel(), keys.get(0));
            Awaitility.await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(5))
                    .until(() -> given().header("X-Tenant-Id", tenant).post("/emails").statusCode() == 200);
        }
    }

    @Test
    void aCallMixingPerTenantAndGlobalLimitsRunsInOneSlot() {
        long degradedBefore = limiter.decisionsWithoutRedis();
        String tenant = "cluster-" + UUID.randomUUID();
        assertThat(ConcurrentRequests.send(120, i -> sliding.resolve("/exact/mixed-scopes"), tenant))
                .containsExactlyInAnyOrderEntriesOf(Map.of(200, ExactnessResource.LIMIT,
                        429, 120 - ExactnessResource.LIMIT));
        assertThat(limiter.decisionsWithoutRedis()).as("no CROSSSLOT, no call decided without Redis").isEqualTo(degradedBefore);
    }

    @Test
    void aCoordinatedFailoverKeepsTheCountAndCausesNoError() {
        Map.Entry<LocalRedisServer, List<String>> first = tenantsOnEachMaster(1).entrySet().iterator().next();
        LocalRedisServer master = first.getKey();
        String tenant = first.getValue().get(0);
        assertThat(ConcurrentRequests.send(20, i -> sliding, tenant)).isEqualTo(Map.of(200, 20));

        LocalRedisServer replica = cluster.replicaOf(master);
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> Long.valueOf(0).equals(replicationOffsetLag(master, replica)));
        assertThat(replica.command("CLUSTER", "FAILOVER")).isEqualTo("OK");
        Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> LocalRedisCluster.isMaster(replica) && !LocalRedisCluster.isMaster(master));

        Map<Integer, Integer> afterFailover = ConcurrentRequests.send(100, i -> sliding, tenant);
        assertThat(afterFailover).as("the 30 left of 50, counted on the promoted replica")
                .containsExactlyInAnyOrderEntriesOf(Map.of(200, ExactnessResource.LIMIT - 20,
                        429, 100 - (ExactnessResource.LIMIT - 20)));
    }

    /**
     * Leases are off unless enabled, and a cluster should not enable them if it is resharded under load: a lease's
     * decision reads two keys of one slot, which a slot migration can hold apart. A hot key's burst is decided in
     * Redis, call by call.
     */
    @Test
    void leasesAreOffUnlessEnabled() {
        assertThat(leases.enabled()).isFalse();
        long taken = leases.leasesTaken();
        assertThat(ConcurrentRequests.send(100, i -> sliding, "cluster-" + UUID.randomUUID()))
                .isEqualTo(Map.of(200, ExactnessResource.LIMIT, 429, 100 - ExactnessResource.LIMIT));
        assertThat(leases.leasesTaken()).isEqualTo(taken);
    }

    @Test
    void aTenantsCountFollowsItsSlotThroughAMigration() {
        Map<LocalRedisServer, List<String>> tenants = tenantsOnEachMaster(1);
        List<LocalRedisServer> masters = new ArrayList<>(tenants.keySet());
        LocalRedisServer source = masters.get(0);
        LocalRedisServer target = masters.get(1);
        String tenant = tenants.get(source).get(0);
        long slot = cluster.slotOf("{" + tenant + "}");
        long degradedBefore = limiter.decisionsWithoutRedis();

        assertThat(ConcurrentRequests.send(10, i -> sliding, tenant)).isEqualTo(Map.of(200, 10));
        cluster.beginSlotMigration(slot, source, target);
        assertThat(ConcurrentRequests.send(10, i -> sliding, tenant)).as("migrating, key still on the source")
                .isEqualTo(Map.of(200, 10));
        cluster.moveSlotKeys(slot, source, target);
        assertThat(ConcurrentRequests.send(10, i -> sliding, tenant)).as("migrating, key on the target (ASK)")
                .isEqualTo(Map.of(200, 10));
        cluster.finishSlotMigration(slot, source, target);
        assertThat(ConcurrentRequests.send(100, i -> sliding, tenant)).as("migrated (MOVED): the 20 left of 50")
                .containsExactlyInAnyOrderEntriesOf(Map.of(200, 20, 429, 80));

        assertThat(limiter.decisionsWithoutRedis()).as("calls decided without Redis").isEqualTo(degradedBefore);
        // other tests' keys may share the slot (16384 slots, random tenants): this tenant's only; its count, and the
        // hash of the slices it leased when its calls came fast enough (lua/lease.lua), moved together
        assertThat(keysInSlot(target, slot)).as("the tenant's keys on the target").filteredOn(key -> key.contains(tenant))
                .isNotEmpty().allMatch(key -> key.endsWith(":sw") || key.endsWith(":sw:leases"));
        assertThat((Long) source.command("CLUSTER", "COUNTKEYSINSLOT", Long.toString(slot))).isZero();
    }

    @SuppressWarnings("unchecked")
    private static List<String> keysInSlot(LocalRedisServer node, long slot) {
        return (List<String>) node.command("CLUSTER", "GETKEYSINSLOT", Long.toString(slot), "1000");
    }

    /** Tenants chosen so that each master serves the slot of {@code perMaster} of them. */
    private Map<LocalRedisServer, List<String>> tenantsOnEachMaster(int perMaster) {
        Map<LocalRedisServer, List<String>> byMaster = new LinkedHashMap<>();
        List<LocalRedisServer> masters = cluster.currentMasters();
        assertThat(masters).hasSize(3);
        masters.forEach(master -> byMaster.put(master, new ArrayList<>()));
        for (int attempt = 0; attempt < 1000; attempt++) {
            if (byMaster.values().stream().allMatch(tenants -> tenants.size() >= perMaster)) {
                return byMaster;
            }
            String tenant = "cluster-" + UUID.randomUUID();
            List<String> tenants = byMaster.get(cluster.masterOf(cluster.slotOf("{" + tenant + "}")));
            if (tenants.size() < perMaster) {
                tenants.add(tenant);
            }
        }
        throw new AssertionError("1000 random tenants did not cover every master: " + byMaster);
    }

    private static Long replicationOffsetLag(LocalRedisServer master, LocalRedisServer replica) {
        return offset(master, "master_repl_offset:") - offset(replica, "slave_repl_offset:");
    }

    private static long offset(LocalRedisServer node, String field) {
        for (String line : ((String) node.command("INFO", "replication")).split("\r?\n")) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim());
            }
        }
        return -1;
    }
}
