package io.quarkiverse.ratelimit.runtime.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.clock.DrivenClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;

class LocalFallbackTest {

    /** Starts at the start of a whole second: a window of 1 s starts now. */
    final DrivenClock clock = new DrivenClock();
    /** One instance alone: its share is the whole limit. */
    final LocalFallback alone = new LocalFallback(100, () -> 1, clock);

    @Test
    void eachInstanceAllowsItsShareOfTheLimit() {
        LocalFallback limiter = new LocalFallback(100, () -> 4, clock);
        LimitDefinition limit = limit(10, Algorithm.FIXED_WINDOW);
        assertThat(limiter.localLimit(limit)).isEqualTo(2);
        assertThat(one(limiter, "t", limit).allowed()).isTrue();
        assertThat(one(limiter, "t", limit).allowed()).isTrue();
        RateLimitDecision refused = one(limiter, "t", limit);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.degraded()).isTrue();
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void theShareFollowsTheInstancesSharingTheLimitAsTheyChange() {
        AtomicInteger instances = new AtomicInteger(1);
        LocalFallback limiter = new LocalFallback(100, instances::get, clock);
        LimitDefinition limit = limit(12, Algorithm.FIXED_WINDOW);
        assertThat(limiter.localLimit(limit)).isEqualTo(12);
        instances.set(3); // two more instances announced themselves
        assertThat(limiter.localLimit(limit)).isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            assertThat(one(limiter, "t", limit).allowed()).isTrue();
        }
        assertThat(one(limiter, "t", limit).allowed()).isFalse();
    }

    @Test
    void aLimitSmallerThanTheInstanceCountStillAllowsOne() {
        LocalFallback limiter = new LocalFallback(100, () -> 8, clock);
        assertThat(limiter.localLimit(limit(3, Algorithm.FIXED_WINDOW))).isEqualTo(1);
    }

    @Test
    void tenantsAndWindowsAreIndependent() {
        LimitDefinition limit = limit(1, Algorithm.FIXED_WINDOW);
        assertThat(one(alone, "a", limit).allowed()).isTrue();
        assertThat(one(alone, "a", limit).allowed()).isFalse();
        assertThat(one(alone, "b", limit).allowed()).isTrue();
        clock.advanceMillis(1000);
        assertThat(one(alone, "a", limit).allowed()).isTrue();
    }

    @Test
    void theSlidingWindowWeighsThePreviousWindowLikeTheScript() {
        LimitDefinition limit = limit(10, Algorithm.SLIDING_WINDOW_COUNTER);
        clock.advanceMillis(900);
        for (int i = 0; i < 10; i++) {
            assertThat(one(alone, "t", limit).allowed()).isTrue();
        }
        clock.advanceMillis(400);
        int admitted = 0;
        while (one(alone, "t", limit).allowed()) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(3);
    }

    @Test
    void memoryIsBoundedByMaxEntries() {
        LocalFallback limiter = new LocalFallback(50, () -> 1, clock);
        LimitDefinition limit = limit(5, Algorithm.FIXED_WINDOW);
        for (int i = 0; i < 1000; i++) {
            one(limiter, "tenant-" + i, limit);
        }
        assertThat(limiter.size()).isLessThanOrEqualTo(50);
    }

    @Test
    void aCallRefusedByOneLimitConsumesNothingFromTheOthers() {
        LimitDefinition roomy = fixed("roomy", 10);
        LimitDefinition tight = fixed("tight", 1);
        List<String> keys = List.of("t:roomy", "t:tight");
        assertThat(decide(alone, keys, List.of(roomy, tight), ShadowMask.NONE)).allMatch(RateLimitDecision::allowed);
        List<RateLimitDecision> refused = decide(alone, keys, List.of(roomy, tight), ShadowMask.NONE);
        assertThat(refused.get(0).allowed()).isTrue();
        assertThat(refused.get(1).allowed()).isFalse();
        assertThat(one(alone, "t", roomy).remaining()).as("only the first call counted in roomy").isEqualTo(8);
    }

    @Test
    void aShadowLimitThatRefusesRefusesNothingAndTheCallIsCountedInTheOthers() {
        LimitDefinition roomy = limit(10, Algorithm.FIXED_WINDOW);
        LimitDefinition tight = fixed("tight", 1);
        List<String> keys = List.of("t:limit", "t:tight");
        ShadowMask tightInShadow = ShadowMask.NONE.with(1);
        decide(alone, keys, List.of(roomy, tight), tightInShadow);
        List<RateLimitDecision> second = decide(alone, keys, List.of(roomy, tight), tightInShadow);
        assertThat(second.get(1).allowed()).as("the shadow limit's own verdict").isFalse();
        assertThat(one(alone, "t", roomy).remaining()).as("both calls counted in the enforced limit").isEqualTo(7);
    }

    @Test
    void aRefundGivesBackAndNeverBelowNothing() {
        LimitDefinition limit = limit(2, Algorithm.FIXED_WINDOW);
        List<String> keys = List.of("t:limit");
        one(alone, "t", limit);
        one(alone, "t", limit);
        assertThat(one(alone, "t", limit).allowed()).isFalse();
        alone.refund(keys, List.of(limit));
        alone.refund(keys, List.of(limit));
        alone.refund(keys, List.of(limit));
        assertThat(one(alone, "t", limit).remaining()).as("two back, not three").isEqualTo(1);
    }

    @Test
    void aSettlementChargesTheDifferenceAndTellsTheStateAfterIt() {
        LimitDefinition limit = limit(10, Algorithm.FIXED_WINDOW);
        List<String> keys = List.of("t:limit");
        one(alone, "t", limit);
        LimitDefinition overrun = limit.withCost(4);
        RateLimitDecision after = alone.settle(keys, List.of(overrun)).result().get(0);
        assertThat(after.remaining()).isEqualTo(5);
        assertThat(one(alone, "t", limit).remaining()).isEqualTo(4);
    }

    @Test
    void aPauseRefusesUntilItEndsAndAResetForgetsTheCounts() {
        LimitDefinition limit = limit(5, Algorithm.FIXED_WINDOW);
        List<String> keys = List.of("t:limit");
        one(alone, "t", limit);
        alone.pause(keys, List.of(limit), Duration.ofMillis(2500));
        RateLimitDecision paused = one(alone, "t", limit);
        assertThat(paused.allowed()).isFalse();
        assertThat(paused.retryAfter()).isEqualTo(Duration.ofMillis(2500));
        clock.advanceMillis(2500);
        assertThat(one(alone, "t", limit).allowed()).isTrue();
        assertThat(alone.reset(List.of("t:limit", "other:limit")).result()).isEqualTo(1);
        assertThat(one(alone, "t", limit).remaining()).isEqualTo(4);
    }

    private static List<RateLimitDecision> decide(LocalFallback limiter, List<String> keys,
            List<LimitDefinition> limits, ShadowMask shadow) {
        return limiter.decide(keys, limits, shadow).result();
    }

    private static RateLimitDecision one(LocalFallback limiter, String tenant, LimitDefinition limit) {
        return decide(limiter, List.of(tenant + ":" + limit.getName()), List.of(limit), ShadowMask.NONE).get(0);
    }

    /** A fixed window of one second, decided locally without Redis. */
    private static LimitDefinition fixed(String name, long limit) {
        return LimitDefinition.builder(name, limit, 1000).algorithm(Algorithm.FIXED_WINDOW).failureMode(FailureMode.LOCAL)
                .build();
    }

    private static LimitDefinition limit(long limit, Algorithm algorithm) {
        return LimitDefinition.builder("limit", limit, 1000).algorithm(algorithm).failureMode(FailureMode.LOCAL).build();
    }
}
