package io.quarkiverse.ratelimit.deployment.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.deployment.RedisCommandStats;
import io.quarkiverse.ratelimit.runtime.lease.LeasedCounts;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.redis.client.Redis;

/**
 * Leases on one instance: the calls of a hot key are admitted from slices Redis counted at once, with a fraction of
 * the Redis calls, and exactly the limit is admitted (a bucket: its burst, less the units its slices held when their leases
 * ended), never one more,
 * for every algorithm that leases; a slow limit never leases; a reset drops the slices; a slice's unused units come
 * back when its lease ends.
 */
class LeasesTest {

    private static final int LIMIT = 2_000;
    private static final int THREADS = 16;
    private static final int CALLS = 2 * LIMIT;

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RedisCommandStats.class))
            .overrideConfigKey("quarkus.rate-limit.leases.enabled", "true")
            .overrideConfigKey("quarkus.rate-limit.leases.excluded", "leased-excluded")
            // longer than a burst: the slice a burst leaves is still out when the test looks at it
            .overrideConfigKey("quarkus.rate-limit.leases.duration", "2s")
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", RedisCommandStats.QUIET_HEARTBEAT);

    @Inject
    RateLimiter limiter;

    @Inject
    LeasedCounts leases;

    @Inject
    RateLimitAdmin admin;

    @Inject
    Redis redis;

    @Test
    void aHotFixedWindowIsAdmittedFromSlicesAndNeverOneCallOverTheLimit() throws Exception {
        hotKeyAdmitsExactlyTheLimit(RateLimit.of("leased-fixed", LIMIT, Duration.ofHours(1))
                .algorithm(Algorithm.FIXED_WINDOW));
    }

    @Test
    void aHotSlidingWindowCounterIsAdmittedFromSlicesAndNeverOneCallOverTheLimit() throws Exception {
        hotKeyAdmitsExactlyTheLimit(RateLimit.of("leased-sliding", LIMIT, Duration.ofHours(1))
                .algorithm(Algorithm.SLIDING_WINDOW_COUNTER));
    }

    @Test
    void aHotCalendarWindowIsAdmittedFromSlicesAndNeverOneCallOverTheLimit() throws Exception {
        hotKeyAdmitsExactlyTheLimit(RateLimit.of("leased-calendar", LIMIT, CalendarPeriod.DAY, ZoneId.of("UTC")));
    }

    @Test
    void aHotTokenBucketIsAdmittedFromSlicesAndNeverOneCallOverItsBurst() throws Exception {
        hotBucketAdmitsAtMostItsBurst(RateLimit.of("leased-bucket", LIMIT, Duration.ofDays(1))
                .algorithm(Algorithm.TOKEN_BUCKET));
    }

    @Test
    void aHotGcraIsAdmittedFromSlicesAndNeverOneCallOverItsBurst() throws Exception {
        hotBucketAdmitsAtMostItsBurst(RateLimit.of("leased-gcra", LIMIT, Duration.ofDays(1)).algorithm(Algorithm.GCRA));
    }

    @Test
    void aSlowLimitNeverLeasesAndIsDecidedByRedisCallByCall() {
        RateLimit slow = RateLimit.of("leased-slow", 5, Duration.ofSeconds(10));
        String tenant = UUID.randomUUID().toString();
        long leasesBefore = leases.leasesTaken();
        for (int i = 4; i >= 0; i--) {
            RateLimitDecision decision = limiter.tryAcquireAndAwait(slow, tenant);
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.remaining()).as("what Redis has left, call by call").isEqualTo(i);
        }
        assertThat(limiter.tryAcquireAndAwait(slow, tenant).allowed()).isFalse();
        assertThat(leases.leasesTaken()).isEqualTo(leasesBefore);
    }

    @Test
    void aCallCostingMoreThanTheSliceHoldsIsDecidedWithTheSliceGivenBack() throws Exception {
        RateLimit limit = RateLimit.of("leased-costly", LIMIT, Duration.ofHours(1)).algorithm(Algorithm.FIXED_WINDOW);
        String tenant = UUID.randomUUID().toString();
        int admitted = burst(limit, tenant, LIMIT / 2);
        assertThat(leases.unitsHeld()).as("a slice out").isPositive();

        int left = LIMIT - admitted;
        RateLimitDecision costly = limiter.tryAcquire(limit, tenant, left).await().indefinitely();
        assertThat(costly.allowed()).as("%d left in Redis and the slice together", left).isTrue();
        assertThat(costly.remaining()).isZero();
    }

    @Test
    void costlyCallsOfAHotKeyAreAdmittedUpToTheLimitWhateverTheSlicesHold() throws Exception {
        RateLimit limit = RateLimit.of("leased-costly-burst", LIMIT, Duration.ofHours(1))
                .algorithm(Algorithm.FIXED_WINDOW);
        // 20 of 100 units each on a limit of 2,000, all at once: slices of whole calls, and none held when Redis refuses
        assertThat(burst(limit, UUID.randomUUID().toString(), 2 * THREADS, 100)).isEqualTo(LIMIT / 100);
    }

    @Test
    void anExcludedLimitNeverLeasesHoweverHotItsKey() throws Exception {
        RateLimit excluded = RateLimit.of("leased-excluded", LIMIT, Duration.ofHours(1))
                .algorithm(Algorithm.FIXED_WINDOW);
        long leasesBefore = leases.leasesTaken();
        assertThat(burst(excluded, UUID.randomUUID().toString(), CALLS)).isEqualTo(LIMIT);
        assertThat(leases.leasesTaken()).isEqualTo(leasesBefore);
    }

    @Test
    void aResetDropsTheSlicesAndTheFreshWindowAdmitsExactlyTheLimit() throws Exception {
        RateLimit limit = RateLimit.of("leased-reset", LIMIT, Duration.ofHours(1)).algorithm(Algorithm.FIXED_WINDOW);
        String tenant = UUID.randomUUID().toString();
        long leasedBefore = leases.leasedAdmissions();
        burst(limit, tenant, LIMIT / 2);
        assertThat(leases.leasedAdmissions()).as("a slice was out").isGreaterThan(leasedBefore);

        limiter.reset(limit, tenant).await().indefinitely();
        assertThat(leases.unitsHeld()).as("the reset dropped the slice").isZero();
        assertThat(admittedUntilSpent(limit, tenant)).isEqualTo(LIMIT);
    }

    @Test
    void theAdministrationSaysWhatIsLeasedOutOfACounterUntilTheLeaseEnds() throws Exception {
        RateLimit limit = RateLimit.of("leased-admin", LIMIT, Duration.ofHours(1)).algorithm(Algorithm.FIXED_WINDOW);
        RateLimitSubject tenant = RateLimitSubject.tenant(UUID.randomUUID().toString());
        int calls = 60 * THREADS;
        assertThat(burst(limit, tenant.name(), calls)).isEqualTo(calls);
        long held = leases.unitsHeld();
        assertThat(held).as("a slice out").isPositive();

        assertThat(admin.leased(tenant, "leased-admin").get("leased-admin")).as("the slice, spent or not")
                .isGreaterThanOrEqualTo(held);
        assertThat(admin.status(tenant, "leased-admin").get(0).remaining()).as("what the slice holds counted as used")
                .isEqualTo(LIMIT - calls - held);

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.unitsHeld() == 0);
        assertThat(admin.leased(tenant, "leased-admin")).containsExactly(Map.entry("leased-admin", 0L));
        assertThat(admin.status(tenant, "leased-admin").get(0).remaining()).as("its unused units given back")
                .isEqualTo(LIMIT - calls);
    }

    private void hotKeyAdmitsExactlyTheLimit(RateLimit limit) throws Exception {
        String tenant = UUID.randomUUID().toString();
        long leasedBefore = leases.leasedAdmissions();
        long scriptCallsBefore = RedisCommandStats.scriptCalls(redis);

        int admitted = burst(limit, tenant, CALLS);

        assertThat(admitted).as("never one call over the limit").isLessThanOrEqualTo(LIMIT);
        long leased = leases.leasedAdmissions() - leasedBefore;
        assertThat(leased).as("most calls admitted from slices").isGreaterThan(LIMIT / 2);
        assertThat(RedisCommandStats.scriptCalls(redis) - scriptCallsBefore)
                .as("Redis calls for %d decisions", CALLS).isLessThan(CALLS / 2);
        // what the last slice held when the burst ended comes back when its lease ends, and is admitted then
        assertThat(admitted + admittedUntilSpent(limit, tenant)).as("exactly the limit").isEqualTo(LIMIT);
    }

    /**
     * A bucket of the limit a day (a unit refills every 43 s: none during the test): exactly its burst is admitted, but
     * for what the slices still held when the burst ended, which a bucket takes back only while its lease lasts (they
     * end here before they are given back); never one call over the burst.
     */
    private void hotBucketAdmitsAtMostItsBurst(RateLimit limit) throws Exception {
        String tenant = UUID.randomUUID().toString();
        long leasedBefore = leases.leasedAdmissions();

        int admitted = burst(limit, tenant, CALLS);
        long heldAfterBurst = leases.unitsHeld();

        assertThat(admitted).as("never one call over the burst").isLessThanOrEqualTo(LIMIT);
        assertThat(leases.leasedAdmissions() - leasedBefore).as("most calls admitted from slices")
                .isGreaterThan(LIMIT / 2);
        int total = admitted + admittedUntilSpent(limit, tenant);
        assertThat(total).as("the burst, less the %d units slices held after it", heldAfterBurst)
                .isBetween((int) (LIMIT - heldAfterBurst), LIMIT);
    }

    /** Calls from {@link #THREADS} threads at once; how many were admitted. */
    private int burst(RateLimit limit, String tenant, int calls) throws Exception {
        return burst(limit, tenant, calls, 1);
    }

    /** Calls of {@code cost} from {@link #THREADS} threads at once; how many were admitted. */
    private int burst(RateLimit limit, String tenant, int calls, long cost) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Integer>> admitted = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                admitted.add(threads.submit(() -> {
                    int own = 0;
                    for (int i = 0; i < calls / THREADS; i++) {
                        own += limiter.tryAcquireAndAwait(limit, tenant, cost).allowed() ? 1 : 0;
                    }
                    return own;
                }));
            }
            int total = 0;
            for (Future<Integer> own : admitted) {
                total += own.get();
            }
            return total;
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The calls still admitted once no slice holds a unit (each lease ends and gives back what it left), one at a
     * time until refused.
     */
    private int admittedUntilSpent(RateLimit limit, String tenant) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> leases.unitsHeld() == 0);
        int admitted = 0;
        while (limiter.tryAcquireAndAwait(limit, tenant).allowed()) {
            admitted++; // from a slice too: one calling thread spends its own slice before Redis refuses
        }
        return admitted;
    }
}
