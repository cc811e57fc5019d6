package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

/**
 * The algorithms are exact at the largest limit a limit may have (Lua numbers are doubles), GCRA and the token bucket
 * included, whose calls are then spaced a millionth of a microsecond apart. Not the sliding log, which keeps one entry
 * per unit: it is bounded by what it stores (the algorithms page).
 */
class LargeLimitsScriptTest {

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "TOKEN_BUCKET", "GCRA" })
    void theLargestLimitCountsEveryCall(Algorithm algorithm) {
        try (ScriptHarness script = new ScriptHarness(algorithm)) {
            long limit = io.quarkiverse.ratelimit.LimitRules.MAX_LIMIT;
            long now = WINDOW_START_US + 100_000;
            for (int i = 1; i <= 3; i++) {
                Reply reply = script.callKeepingTheKey("{big}:" + algorithm, limit, 1, now);
                assertThat(reply.allowed()).isTrue();
                assertThat(reply.remaining()).as("call %d", i).isEqualTo(limit - i);
            }
            Reply heavy = script.callKeepingTheKey("{big}:" + algorithm, limit, limit - 3, now);
            assertThat(heavy.allowed()).as("the rest of the limit in one call").isTrue();
            assertThat(heavy.remaining()).isZero();
            assertThat(script.call("{big}:" + algorithm, limit, 1, now).allowed()).isFalse();
        }
    }
}
