package io.quarkiverse.ratelimit.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;

/** The in-memory store keeps the store's contract, on a clock the test drives: no Redis, no waiting. */
class InMemoryCountStoreTest {

    private static final long HOUR_MS = 3_600_000;

    private final AtomicLong nowMicros = new AtomicLong(1_700_000_000L * 1_000_000);
    private final InMemoryCountStore store = new InMemoryCountStore(nowMicros::get);

    private final LimitDefinition fivePerHour = limit("five", 5, Algorithm.FIXED_WINDOW);
    private final LimitDefinition twoPerHour = limit("two", 2, Algorithm.FIXED_WINDOW);
    private final List<String> keys = List.of("rl:{t}:five", "rl:{t}:two");

    @Test
    void aCallIsRecordedInEveryLimitOrInNone() {
        List<LimitDefinition> both = List.of(fivePerHour, twoPerHour);
        assertThat(allowed(store.decide(keys, both, ShadowMask.NONE).result())).containsExactly(true, true);
        assertThat(allowed(store.decide(keys, both, ShadowMask.NONE).result())).containsExactly(true, true);

        List<RateLimitDecision> third = store.decide(keys, both, ShadowMask.NONE).result();
        assertThat(allowed(third)).containsExactly(true, false);
        assertThat(third.get(0).remaining()).isEqualTo(2); // what the call would have left: it took nothing
        assertThat(store.decide(keys.subList(0, 1), List.of(fivePerHour), ShadowMask.NONE).result().get(0).remaining())
                .as("the refused call recorded nothing in the limit that allowed it").isEqualTo(2);
    }

    @Test
    void aShadowLimitsRefusalRefusesNothingAndRecordsNothing() {
        List<LimitDefinition> both = List.of(fivePerHour, twoPerHour);
        ShadowMask twoInShadow = ShadowMask.NONE.with(1);
        for (int call = 1; call <= 5; call++) {
            List<RateLimitDecision> decisions = store.decide(keys, both, twoInShadow).result();
            assertThat(decisions.get(0).allowed()).as("call %d", call).isTrue();
            assertThat(decisions.get(0).remaining()).isEqualTo(5 - call);
        }
        assertThat(store.decide(keys, both, twoInShadow).result().get(0).allowed()).isFalse();
    }

    @Test
    void refundsAndSettlementsMoveTheCountBothWays() {
        List<String> key = keys.subList(0, 1);
        for (int call = 0; call < 5; call++) {
            store.decide(key, List.of(fivePerHour), ShadowMask.NONE);
        }
        store.refund(key, List.of(fivePerHour.withCost(2)));
        assertThat(store.settle(key, List.of(fivePerHour.withCost(0))).result().get(0).remaining()).isEqualTo(2);
        assertThat(store.settle(key, List.of(fivePerHour.withCost(10))).result().get(0).remaining())
                .as("an overrun charged beyond the limit").isZero();
        assertThat(store.settle(key, List.of(fivePerHour.withCost(-9))).result().get(0).remaining()).isEqualTo(1);
    }

    @Test
    void aPauseStopsABucketUntilTheClockPassesItAndLeavesACountingWindowAlone() {
        LimitDefinition bucket = limit("bucket", 100, Algorithm.TOKEN_BUCKET);
        List<LimitDefinition> limits = List.of(bucket, fivePerHour);
        List<String> pausedKeys = List.of("rl:{t}:bucket", "rl:{t}:five");
        store.pause(pausedKeys, limits, Duration.ofSeconds(30));

        List<RateLimitDecision> paused = store.decide(pausedKeys, limits, ShadowMask.NONE).result();
        assertThat(allowed(paused)).containsExactly(false, true);
        assertThat(paused.get(0).retryAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(store.decide(pausedKeys.subList(1, 2), List.of(fivePerHour), ShadowMask.NONE).result().get(0)
                .remaining()).as("the refused call took nothing of the window").isEqualTo(4);

        nowMicros.addAndGet(30_000_001);
        assertThat(allowed(store.decide(pausedKeys, limits, ShadowMask.NONE).result())).containsExactly(true, true);
    }

    @Test
    void aWindowOpensAgainWhenTheDrivenClockPassesIt() {
        List<String> key = keys.subList(1, 2);
        store.decide(key, List.of(twoPerHour), ShadowMask.NONE);
        store.decide(key, List.of(twoPerHour), ShadowMask.NONE);
        assertThat(store.decide(key, List.of(twoPerHour), ShadowMask.NONE).result().get(0).allowed()).isFalse();

        nowMicros.addAndGet(HOUR_MS * 1000);
        assertThat(store.decide(key, List.of(twoPerHour), ShadowMask.NONE).result().get(0).allowed()).isTrue();
    }

    @Test
    void aResetForgetsTheStateAndSaysHowManyKeysHeldSome() {
        store.decide(keys.subList(0, 1), List.of(fivePerHour), ShadowMask.NONE);
        assertThat(store.reset(keys).result()).isEqualTo(1);
        assertThat(store.reset(keys).result()).isZero();
        assertThat(store.decide(keys.subList(0, 1), List.of(fivePerHour), ShadowMask.NONE).result().get(0).remaining())
                .isEqualTo(4);
    }

    private static LimitDefinition limit(String name, long limit, Algorithm algorithm) {
        return LimitDefinition.builder(name, limit, HOUR_MS).algorithm(algorithm).build();
    }

    private static List<Boolean> allowed(List<RateLimitDecision> decisions) {
        return decisions.stream().map(RateLimitDecision::allowed).toList();
    }
}
