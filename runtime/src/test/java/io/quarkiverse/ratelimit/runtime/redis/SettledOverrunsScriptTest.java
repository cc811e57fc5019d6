package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

/**
 * A settled overrun of any size leaves the limit in debt, in every algorithm: none wraps around and gives the budget
 * back. The application refuses a settlement above {@code LimitRules.MAX_COST}; the scripts hold whatever reaches
 * them, up to {@code Long.MAX_VALUE}, and keep their state exact (a count saturates at 2^50 units, a GCRA debt at 100
 * years).
 */
class SettledOverrunsScriptTest {

    static final long DAY_MS = Duration.ofDays(1).toMillis();
    static final long RESERVED = 100;

    static final ScriptHarness script = new ScriptHarness(Algorithm.FIXED_WINDOW);

    @AfterAll
    static void stop() {
        script.close();
    }

    static List<Arguments> overruns() {
        List<Arguments> cases = new java.util.ArrayList<>();
        for (Algorithm algorithm : Algorithm.values()) {
            for (long cost : new long[] { 100_000_000L, 1_000_000_000_000L, 1L << 52, Long.MAX_VALUE }) {
                cases.add(Arguments.of(algorithm, cost));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} settled at {1}")
    @MethodSource("overruns")
    void aLargeSettlementLeavesTheLimitInDebt(Algorithm algorithm, long realCost) {
        long now = script.redisTimeMicros(); // the TTLs run on Redis's own clock, as do a calendar's periods
        String key = "{overrun}:" + algorithm + ":" + realCost;
        Reply reserved = decide(now, new Limit(key, algorithm, 1000, RESERVED, 0, DAY_MS));
        assertThat(reserved.allowed()).isTrue();

        Reply settled = settle(now, new Limit(key, algorithm, 1000, realCost - RESERVED, 0, DAY_MS));

        assertThat(settled.allowed()).as("in debt").isFalse();
        assertThat(settled.remaining()).as("nothing left").isZero();
        Reply next = decide(now + 1000, new Limit(key, algorithm, 1000, 1, 0, DAY_MS));
        assertThat(next.allowed()).as("the next call is refused").isFalse();
        assertThat(next.remaining()).isZero();
        assertThat(next.retryAfterMillis()).as("until the debt is paid back").isPositive();
        assertThat((Long) script.redis("PTTL", key)).as("the key that holds the debt expires")
                .isPositive().isLessThanOrEqualTo(Duration.ofDays(36_525).toMillis() + 1000);
        if (algorithm == Algorithm.SLIDING_WINDOW_LOG) {
            assertThat((Long) script.redis("ZCARD", key)).as("an entry per unit up to twice the limit, no more")
                    .isEqualTo(2000 + RESERVED);
        }
    }

    private static Reply decide(long nowMicros, Limit limit) {
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) script.redis(script.decideCommand(nowMicros, 0, limit));
        return ScriptHarness.replies(reply).get(0);
    }

    private static Reply settle(long nowMicros, Limit limit) {
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) script.redis(script.settleCommand(nowMicros, limit));
        return ScriptHarness.replies(reply).get(0);
    }
}
