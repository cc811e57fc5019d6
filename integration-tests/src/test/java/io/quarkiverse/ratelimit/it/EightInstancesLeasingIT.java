package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.restassured.specification.RequestSpecification;

/**
 * Leases on a fleet of eight packaged instances, one Redis: a global limit and a big tenant's, driven past their limit
 * at once from every instance, are admitted mostly from slices and exactly up to the limit in the burst itself (counted
 * from the answers: slices recalled near the limit, the calls refused meanwhile waiting for them), for every algorithm
 * that leases (a bucket: never over its burst, less at most what its slices held when their leases ended). A reset, a run-time
 * limit and a block made
 * on one instance reach every slice on all eight well within a lease; an instance killed with {@code kill -9} while
 * holding a slice loses at most that slice.
 */
class EightInstancesLeasingIT {

    static final int INSTANCES = 8;
    static final int LIMIT = LeasedResource.LIMIT;
    /** Longer than the fleet's revocations take, so that a slice dropped early was dropped by them, not by its end. */
    static final Duration LEASE = Duration.ofSeconds(5);
    static final int IN_FLIGHT = 64;

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> {
        List<AppInstance> instances = IntStream.range(0, INSTANCES).mapToObj(i -> startInstance(redis)).toList();
        instances.forEach(AppInstance::awaitReady);
        return instances;
    });

    static AppInstance startInstance(LocalRedisServer redis) {
        return AppInstance.start(redis, "quarkus.rate-limit.leases.enabled=true",
                "quarkus.rate-limit.leases.duration=" + LEASE.toMillis() + "ms",
                "quarkus.security.users.embedded.users.ops=ops",
                "quarkus.security.users.embedded.roles.ops=rate-limit-admin");
    }

    /** Every test's claims hold only where Redis decided: none of its calls may have been left to a failure mode. */
    @AfterEach
    void everyCallWasDecidedByRedisOrALease() {
        assertThat(fleetStatus()).as("decided by a failure mode (Redis too slow for the machine)")
                .allMatch(status -> status.withoutRedis() == 0);
    }

    @Test
    void aGlobalLimitIsNeverExceededAndExactlyTheLimitIsAdmitted() {
        exactlyTheLimitInTheBurst("/leased/global", "global-" + UUID.randomUUID());
    }

    @Test
    void aBigTenantsFixedWindowIsNeverExceededAndExactlyTheLimitIsAdmitted() {
        exactlyTheLimitInTheBurst("/leased/fixed", "big-tenant-" + UUID.randomUUID());
    }

    @Test
    void aBigTenantsSlidingWindowCounterIsNeverExceededAndExactlyTheLimitIsAdmitted() {
        exactlyTheLimitInTheBurst("/leased/sliding", "big-tenant-" + UUID.randomUUID());
    }

    @Test
    void aBigTenantsTokenBucketIsNeverExceeded() {
        neverOverABurst("/leased/token-bucket", "big-tenant-" + UUID.randomUUID());
    }

    @Test
    void aBigTenantsGcraIsNeverExceeded() {
        neverOverABurst("/leased/gcra", "big-tenant-" + UUID.randomUUID());
    }

    @Test
    void aResetOnOneInstanceDropsTheSlicesOfAllEight() {
        String tenant = "reset-" + UUID.randomUUID();
        slicesOutOnEveryInstance("/leased/fixed", tenant);

        ops(0).delete("/q/rate-limit/tenants/" + tenant + "/policies/LeasedResource.fixed/counters").then()
                .statusCode(200);
        awaitNoSliceWithinALease("the reset");
        assertThat(admittedOneByOne("/leased/fixed", tenant)).as("the fresh window, exactly").isEqualTo(LIMIT);
    }

    @Test
    void aRunTimeLimitOnOneInstanceReachesTheSlicesOfAllEight() {
        String tenant = "run-time-" + UUID.randomUUID();
        int admitted = slicesOutOnEveryInstance("/leased/fixed", tenant);

        int lowered = admitted / 2;
        ops(0).contentType("application/json").body("{\"limit\": " + lowered + "}")
                .put("/q/rate-limit/tenants/" + tenant + "/limits/LeasedResource.fixed").then().statusCode(204);
        awaitNoSliceWithinALease("the run-time limit");
        Map<Integer, Integer> after = burst("/leased/fixed", tenant, 8 * INSTANCES);
        assertThat(after).as("used %d of a limit lowered to %d: refused on every instance", admitted, lowered)
                .containsExactlyEntriesOf(Map.of(429, 8 * INSTANCES));
    }

    @Test
    void aBlockOnOneInstanceRefusesOnAllEightWhileSlicesWereOut() {
        String tenant = "blocked-" + UUID.randomUUID();
        slicesOutOnEveryInstance("/leased/fixed", tenant);

        ops(0).put("/q/rate-limit/tenants/" + tenant + "/blocked").then().statusCode(204);
        await("every instance refuses the blocked tenant").atMost(LEASE.dividedBy(2)).untilAsserted(
                () -> assertThat(burst("/leased/fixed", tenant, 2 * INSTANCES)).containsOnlyKeys(403));
    }

    @Test
    void anInstanceKilledHoldingASliceLosesAtMostThatSlice() throws Exception {
        String tenant = "killed-" + UUID.randomUUID();
        // a ninth instance: the fleet's eight serve the other tests
        AppInstance doomed = startInstance(fleet.redis());
        try {
            doomed.awaitReady();
            long held = 0;
            int admitted = 0;
            for (int attempt = 0; attempt < 5 && held == 0; attempt++) {
                admitted += burst(LIMIT / 10, i -> doomed.uri().resolve("/leased/fixed"), tenant).getOrDefault(200, 0);
                held = status(doomed).leasedUnits();
            }
            assertThat(held).as("a slice held by the instance to kill").isPositive();
            doomed.process().destroyForcibly().waitFor();

            int afterwards = admittedOneByOne("/leased/fixed", tenant, fleet.instances());
            // the killed instance's unused units stay counted until the window ends: lost, never admitted twice
            assertThat(admitted + afterwards).as("the limit less what the killed instance's slice held")
                    .isEqualTo(LIMIT - held);
        } finally {
            doomed.process().destroyForcibly();
        }
    }

    private void exactlyTheLimitInTheBurst(String path, String tenant) {
        long leasedBefore = fleetStatus().stream().mapToLong(Status::fromLeases).sum();
        Map<Integer, Integer> byStatus = burst(path, tenant, 2 * LIMIT);
        int admitted = byStatus.getOrDefault(200, 0);
        assertThat(byStatus).as("admitted or refused, never a 5xx").containsOnlyKeys(200, 429);
        // near the limit the slices out are recalled, and a call refused while they come back waits for them
        assertThat(admitted).as("exactly the limit, in the burst itself").isEqualTo(LIMIT);
        assertThat(fleetStatus().stream().mapToLong(Status::fromLeases).sum() - leasedBefore)
                .as("calls admitted from slices").isPositive();
        assertThat(admittedOneByOne(path, tenant)).as("nothing left once the slices are back").isZero();
    }

    /**
     * A bucket: never more than its burst; exactly the burst but for what the slices still held when the burst ended,
     * which a bucket takes back only while its lease lasts (they end here before they are given back).
     */
    private void neverOverABurst(String path, String tenant) {
        long leasesBefore = fleetStatus().stream().mapToLong(Status::leasesTaken).sum();
        Map<Integer, Integer> byStatus = burst(path, tenant, 2 * LIMIT);
        long heldAfterBurst = fleetStatus().stream().mapToLong(Status::leasedUnits).sum();
        int admitted = byStatus.getOrDefault(200, 0);
        assertThat(byStatus).as("admitted or refused, never a 5xx").containsOnlyKeys(200, 429);
        assertThat(admitted).as("never one call over the burst").isLessThanOrEqualTo(LIMIT);
        assertThat(fleetStatus().stream().mapToLong(Status::leasesTaken).sum() - leasesBefore).as("leases taken")
                .isPositive();
        int total = admitted + admittedOneByOne(path, tenant);
        assertThat(total).as("the burst, less the %d units slices held after it", heldAfterBurst)
                .isBetween((int) (LIMIT - heldAfterBurst), LIMIT);
    }

    /** A burst from every instance at once, half the limit: each leases; what was admitted. */
    private int slicesOutOnEveryInstance(String path, String tenant) {
        int admitted = burst(path, tenant, LIMIT / 2).getOrDefault(200, 0);
        assertThat(fleetStatus().stream().mapToLong(Status::leasedUnits).sum()).as("slices out").isPositive();
        return admitted;
    }

    private static Map<Integer, Integer> burst(String path, String tenant, int requests) {
        return burst(requests, i -> fleet.instance(i % INSTANCES).uri().resolve(path), tenant);
    }

    private static Map<Integer, Integer> burst(int requests, IntFunction<URI> uriOfRequest, String tenant) {
        return ConcurrentRequests.send(requests, uriOfRequest, tenant, IN_FLIGHT);
    }

    /** Well within a lease: slices dropped by a change, not ended by their time. */
    private static void awaitNoSliceWithinALease(String change) {
        await("every instance dropped its slices after " + change).atMost(LEASE.dividedBy(2))
                .until(() -> fleetStatus().stream().allMatch(status -> status.leasedUnits() == 0));
    }

    private static int admittedOneByOne(String path, String tenant) {
        return admittedOneByOne(path, tenant, fleet.instances());
    }

    /**
     * Once no instance holds a slice: calls one at a time, each instance in turn, until every instance refused one in a
     * row (one that leases again meanwhile spends its slice on its turns); the calls admitted.
     */
    private static int admittedOneByOne(String path, String tenant, List<AppInstance> instances) {
        await("every slice given back").atMost(LEASE.multipliedBy(3))
                .until(() -> instances.stream().allMatch(instance -> status(instance).leasedUnits() == 0));
        int admitted = 0;
        int refusedInARow = 0;
        for (int i = 0; refusedInARow < instances.size(); i++) {
            URI uri = instances.get(i % instances.size()).uri().resolve(path);
            int status = given().header("X-Tenant-Id", tenant).get(uri).statusCode();
            if (status == 200) {
                admitted++;
                refusedInARow = 0;
            } else {
                assertThat(status).isEqualTo(429);
                refusedInARow++;
            }
        }
        return admitted;
    }

    private static List<Status> fleetStatus() {
        return fleet.instances().stream().filter(instance -> instance.process().isAlive())
                .map(EightInstancesLeasingIT::status).toList();
    }

    private static Status status(AppInstance instance) {
        Map<String, Object> data = given().get(instance.uri().resolve("/q/health/ready")).jsonPath()
                .getMap("checks.find { it.name == 'rate-limit' }.data");
        return new Status(((Number) data.get("leased-units")).longValue(),
                ((Number) data.get("decisions-from-leases")).longValue(),
                ((Number) data.get("leases-taken")).longValue(),
                ((Number) data.get("decisions-without-redis")).longValue());
    }

    private static RequestSpecification ops(int instance) {
        return given().baseUri(fleet.instance(instance).uri().toString()).auth().preemptive().basic("ops", "ops");
    }

    /** What an instance's readiness check says of its leases. */
    record Status(long leasedUnits, long fromLeases, long leasesTaken, long withoutRedis) {
    }
}
