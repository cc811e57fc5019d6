package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

/**
 * Counterexamples {@link ScriptsMatchTheirModelsTest} found, shrunk, and the exact times that fixing them promises.
 * The scripts computed on a clock in milliseconds held in doubles (a 2026 timestamp to about a quarter of a
 * microsecond), divided rates before multiplying and rounded a rounded time again, so a reset or a Retry-After could be
 * a millisecond long. They now compute on whole microseconds and divide once, last.
 */
class ExactTimesScriptTest {

    private static final long HOUR_MS = 3_600_000;
    private static final long DAY_MS = 24 * HOUR_MS;
    /** A real clock is rarely on a millisecond. */
    private static final long NOW = WINDOW_START_US + 123;

    static final ScriptHarness script = new ScriptHarness(Algorithm.TOKEN_BUCKET);

    @AfterAll
    static void stop() {
        script.close();
    }

    /** The keys stay: this test's clock stands still between calls while Redis's, which expires keys, runs on. */
    private static Reply call(Limit limit, long nowUs) {
        return script.callAllKeepingTheKeys(nowUs, limit).get(0);
    }

    @Test
    void aTokenOfOnePerHourIsBackInExactlyAnHour() {
        Limit hourly = new Limit("{exact}:tb-hour", Algorithm.TOKEN_BUCKET, 1, 1, 0, HOUR_MS);
        assertThat(call(hourly, NOW)).isEqualTo(new Reply(true, 0, HOUR_MS, 0));
        assertThat(call(hourly, NOW)).isEqualTo(new Reply(false, 0, HOUR_MS, HOUR_MS));
    }

    @Test
    void aTokenDueAtAnExactMicrosecondIsThereAtThatMicrosecond() {
        Limit tenPerSecond = new Limit("{exact}:tb-refill", Algorithm.TOKEN_BUCKET, 10, 1, 0, 1_000);
        for (int i = 0; i < 10; i++) {
            assertThat(call(tenPerSecond, NOW).allowed()).isTrue();
        }
        // a token every 100 ms: 30 ms, then 70 ms later, the first token is whole
        assertThat(call(tenPerSecond, NOW + 30_000).retryAfterMillis()).isEqualTo(70);
        assertThat(call(tenPerSecond, NOW + 99_999).allowed()).isFalse();
        assertThat(call(tenPerSecond, NOW + 100_000).allowed()).isTrue();
    }

    @Test
    void aSlidingWindowsRetryAfterIsRoundedUpOnceNotTwice() {
        Limit twoPerMs = new Limit("{exact}:swc-ms", Algorithm.SLIDING_WINDOW_COUNTER, 2, 1, 0, 1);
        long windowStart = 1_767_225_600L * 1_000_000;
        assertThat(call(twoPerMs, windowStart + 117).allowed()).isTrue();
        assertThat(call(twoPerMs, windowStart + 117).allowed()).isTrue();
        // 500 us left of this window, then half of the next before its weight of 2 leaves room: 1,000 us
        assertThat(call(twoPerMs, windowStart + 500)).isEqualTo(new Reply(false, 0, 2, 1));
    }

    @Test
    void aSlidingDailyQuotaSaysExactlyWhenEnoughOfYesterdayHasSlidOut() {
        Limit daily = new Limit("{exact}:swc-day", Algorithm.SLIDING_WINDOW_COUNTER, 1_000_000, 1_000_000, 0, DAY_MS);
        long today = 1_767_225_600L * 1_000_000; // 2026-01-01, on a day's boundary
        long yesterday = today - DAY_MS * 1000 + 5_000_000;
        assertThat(call(daily, yesterday).allowed()).isTrue();
        // 12 h and 123 us into today, yesterday weighs 1,000,000 * (43,199,999,877 / 86,400,000,000) = 499,999.998...
        long noon = today + DAY_MS * 500 + 123;
        Limit half = new Limit("{exact}:swc-day", Algorithm.SLIDING_WINDOW_COUNTER, 1_000_000, 500_000, 0, DAY_MS);
        assertThat(call(half, noon).allowed()).isTrue();
        // one more fits once yesterday weighs 499,999: after 43,199,999,877 - 43,199,913,600 = 86,277 us
        Reply refused = call(new Limit("{exact}:swc-day", Algorithm.SLIDING_WINDOW_COUNTER, 1_000_000, 1, 0, DAY_MS),
                noon);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfterMillis()).isEqualTo(87);
    }

    @Test
    void gcraSpacesCallsByExactlyTheInterval() {
        Limit third = new Limit("{exact}:gcra", Algorithm.GCRA, 3, 1, 1, 1_000);
        assertThat(call(third, NOW).allowed()).isTrue();
        // one call per 333,333 1/3 us, the arrival time kept exactly (a third of a microsecond included)
        assertThat(call(third, NOW + 100_000).retryAfterMillis()).isEqualTo(234);
        assertThat(call(third, NOW + 333_333).allowed()).isFalse();
        assertThat(call(third, NOW + 333_334).allowed()).isTrue();
        assertThat(call(third, NOW + 333_334).retryAfterMillis()).isEqualTo(334);
    }
}
