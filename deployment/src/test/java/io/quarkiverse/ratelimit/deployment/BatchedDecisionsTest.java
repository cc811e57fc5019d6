package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;

/**
 * Decisions an event loop asks for in one turn go to Redis together, in one call of the batch function: each decided
 * exactly as alone, far fewer calls than decisions, and one decision's error fails that decision only. Decisions asked
 * for off the event loop (blocking callers) queue for an event loop and travel in batches too.
 */
class BatchedDecisionsTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(DecisionsInFlight.class, RedisCommandStats.class))
            // the batches of the decisions Redis makes: a tenant this hot would otherwise be admitted from slices
            // (LeasesTest), its calls never reaching Redis to be batched
            .overrideConfigKey("quarkus.rate-limit.leases.enabled", "false")
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", RedisCommandStats.QUIET_HEARTBEAT);

    static final RateLimit LIMIT = RateLimit.of("batched", 150, Duration.ofHours(1));

    @Inject
    RateLimiter limiter;

    @Inject
    Redis redis;

    @Inject
    Vertx vertx;

    @Test
    void decisionsInFlightTogetherAreDecidedExactlyInFewCalls() {
        String tenant = UUID.randomUUID().toString();
        long callsBefore = RedisCommandStats.calls(redis, "fcall");

        List<RateLimitDecision> decisions = inOneTurn(600, i -> tenant);

        assertThat(decisions).filteredOn(RateLimitDecision::allowed).hasSize(150);
        assertThat(decisions).noneMatch(RateLimitDecision::degraded);
        assertThat(decisions.subList(0, 150)).allMatch(RateLimitDecision::allowed);
        assertThat(decisions.get(149).remaining()).isZero();
        assertThat(RedisCommandStats.calls(redis, "fcall") - callsBefore).as("Redis calls for 600 decisions")
                .isBetween(1L, 60L);
    }

    @Test
    void aTurnsDecisionsGoInTwoCallsUnlessTheyAreAllOneTenants() {
        String hot = UUID.randomUUID().toString();
        long before = RedisCommandStats.calls(redis, "fcall");
        List<RateLimitDecision> decisions = inOneTurn(64, i -> hot);
        assertThat(decisions).allMatch(RateLimitDecision::allowed);
        assertThat(RedisCommandStats.calls(redis, "fcall") - before).as("one tenant's 64 decisions").isEqualTo(1);

        before = RedisCommandStats.calls(redis, "fcall");
        decisions = inOneTurn(64, i -> UUID.randomUUID().toString());
        assertThat(decisions).allMatch(RateLimitDecision::allowed);
        assertThat(RedisCommandStats.calls(redis, "fcall") - before)
                .as("64 tenants' decisions: two calls, the instance reading the first's replies while Redis runs the second")
                .isEqualTo(2);
    }

    @Test
    void whatTheFirstHalfOfABatchsAnswersLetGoOnIsSentBeforeTheSecondHalfIsAnswered() {
        String hot = UUID.randomUUID().toString();
        long before = RedisCommandStats.calls(redis, "fcall");
        List<RateLimitDecision> next = callsInOneTurn(64,
                i -> limiter.tryAcquire(LIMIT, hot).chain(first -> limiter.tryAcquire(LIMIT, hot)));
        assertThat(next).allMatch(RateLimitDecision::allowed);
        assertThat(RedisCommandStats.calls(redis, "fcall") - before)
                .as("one call for one tenant's 64 decisions, then one for the decisions each half of its answers let go on")
                .isEqualTo(3);
    }

    @Test
    void eachTenantAndEachLimitOfABatchIsExact() {
        RateLimit perSecond = RateLimit.of("batched-second", 7, Duration.ofSeconds(100));
        RateLimit perHour = RateLimit.of("batched-hour", 5, Duration.ofHours(1));
        List<String> tenants = List.of("a-" + UUID.randomUUID(), "b-" + UUID.randomUUID(), "c-" + UUID.randomUUID());
        List<Uni<Map.Entry<String, Boolean>>> inFlight = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String tenant = tenants.get(i % tenants.size());
            RateLimit limit = i % 2 == 0 ? perSecond : perHour;
            inFlight.add(limiter.tryAcquire(limit, tenant)
                    .map(decision -> Map.entry(tenant + " " + limit.name(), decision.allowed())));
        }
        Map<String, Long> admitted = onEventLoop(() -> inFlight).stream().filter(Map.Entry::getValue)
                .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.counting()));

        for (String tenant : tenants) {
            assertThat(admitted).containsEntry(tenant + " batched-second", 7L).containsEntry(tenant + " batched-hour", 5L);
        }
    }

    @Test
    void aDecisionThatFailsInABatchFailsAlone() {
        String broken = "broken-" + UUID.randomUUID();
        redis.send(Request.cmd(Command.HSET).arg("rate-limit:{" + broken + "}:batched:sw").arg("not").arg("a counter"))
                .await().indefinitely();
        String healthy = "healthy-" + UUID.randomUUID();
        List<Uni<RateLimitDecision>> inFlight = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            inFlight.add(limiter.tryAcquire(LIMIT, isBroken(i) ? broken : healthy));
        }
        List<RateLimitDecision> decisions = onEventLoop(() -> inFlight);

        for (int i = 0; i < 40; i++) {
            assertThat(decisions.get(i).degraded()).as("decision %d (%s)", i, isBroken(i) ? "broken key" : "healthy")
                    .isEqualTo(isBroken(i));
        }
        assertThat(decisions).filteredOn(decision -> !decision.degraded()).allMatch(RateLimitDecision::allowed);
    }

    @Test
    void decisionsAskedForOffTheEventLoopTravelTogether() {
        String tenant = UUID.randomUUID().toString();
        long callsBefore = RedisCommandStats.calls(redis, "fcall");

        List<RateLimitDecision> decisions = DecisionsInFlight.decide(limiter, LIMIT, tenant, 200);

        assertThat(decisions).filteredOn(RateLimitDecision::allowed).hasSize(150);
        assertThat(decisions).noneMatch(RateLimitDecision::degraded);
        assertThat(RedisCommandStats.calls(redis, "fcall") - callsBefore).as("Redis calls for 200 decisions")
                .isBetween(1L, 199L);
    }

    @Test
    void blockingCallersOnManyThreadsAreDecidedExactly() throws Exception {
        String tenant = UUID.randomUUID().toString();
        ExecutorService callers = Executors.newFixedThreadPool(32);
        try {
            List<Future<RateLimitDecision>> decisions = new ArrayList<>();
            for (int i = 0; i < 640; i++) {
                decisions.add(callers.submit(() -> limiter.tryAcquireAndAwait(LIMIT, tenant)));
            }
            int admitted = 0;
            for (Future<RateLimitDecision> decision : decisions) {
                RateLimitDecision decided = decision.get(30, TimeUnit.SECONDS);
                assertThat(decided.degraded()).isFalse();
                admitted += decided.allowed() ? 1 : 0;
            }
            assertThat(admitted).isEqualTo(150);
        } finally {
            callers.shutdownNow();
        }
    }

    /** {@code count} decisions of {@link #LIMIT} asked for in one turn of an event loop, for the tenants given. */
    private List<RateLimitDecision> inOneTurn(int count, IntFunction<String> tenant) {
        return callsInOneTurn(count, i -> limiter.tryAcquire(LIMIT, tenant.apply(i)));
    }

    /** {@code count} calls subscribed to in one turn of an event loop, awaited. */
    private <T> List<T> callsInOneTurn(int count, IntFunction<Uni<T>> call) {
        return onEventLoop(() -> IntStream.range(0, count).mapToObj(call).toList());
    }

    /** Subscribes to the decisions on an event loop, in one turn of it, and awaits them all. */
    private <T> List<T> onEventLoop(Supplier<List<Uni<T>>> decisions) {
        CompletableFuture<List<T>> all = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(ignored -> Uni.join().all(decisions.get()).andFailFast().subscribe()
                .with(all::complete, all::completeExceptionally));
        return all.orTimeout(30, TimeUnit.SECONDS).join();
    }

    /** Two of the forty, apart: fewer failures in a row than open the circuit breaker. */
    private static boolean isBroken(int call) {
        return call == 13 || call == 27;
    }
}
