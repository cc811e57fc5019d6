package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

class GcraScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.GCRA);

    @AfterAll
    static void stop() {
        script.close();
    }

    @Test
    void allowsABurstOfTheLimitAndCountsDownWhatIsLeft() {
        assertThat(script.call("gcra:burst", 4, 1, WINDOW_START_US)).isEqualTo(new Reply(true, 3, 250, 0));
        assertThat(script.admitUntilRefused("gcra:burst", 4, WINDOW_START_US)).isEqualTo(3);
    }

    @Test
    void aBurstWhoseIntervalIsNoWholeNumberOfMicrosecondsComesWholeAtOnce() {
        // 6 a second: an interval of 166,666 2/3 us; a TAT rounded to the microsecond grew by 1/3 us too much a call
        // and refused the sixth call of the burst
        for (long limit : new long[] { 6, 7, 45, 997 }) {
            assertThat(script.admitUntilRefused("gcra:odd-" + limit, limit, WINDOW_START_US + 7)).as("limit %d", limit)
                    .isEqualTo(limit);
        }
    }

    @Test
    void thenSpacesCallsByTheEmissionIntervalWithAnExactRetryAfter() {
        script.admitUntilRefused("gcra:spacing", 4, WINDOW_START_US);
        Reply refused = script.call("gcra:spacing", 4, 1, WINDOW_START_US + 100_000);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfterMillis()).as("250 ms interval, 100 ms already passed").isEqualTo(150);
        assertThat(script.call("gcra:spacing", 4, 1, WINDOW_START_US + 249_000).allowed()).isFalse();
        assertThat(script.call("gcra:spacing", 4, 1, WINDOW_START_US + 250_000).allowed()).isTrue();
        assertThat(script.call("gcra:spacing", 4, 1, WINDOW_START_US + 260_000).allowed()).isFalse();
    }

    @Test
    void aBurstSetsTheToleranceWhileTheSpacingStays() {
        var limit = new ScriptHarness.Limit("gcra:burst1", Algorithm.GCRA, 4, 1, 1);
        assertThat(script.callAll(WINDOW_START_US, limit).get(0).allowed()).isTrue();
        Reply second = script.callAll(WINDOW_START_US, limit).get(0);
        assertThat(second.allowed()).as("a burst of 1: no second call at once").isFalse();
        assertThat(second.retryAfterMillis()).isEqualTo(250);
    }

    @Test
    void aRefusedCallLeavesTheTheoreticalArrivalTimeAlone() {
        script.admitUntilRefused("gcra:refused", 2, WINDOW_START_US);
        Object before = script.redis("GET", "gcra:refused");
        script.call("gcra:refused", 2, 1, WINDOW_START_US + 1_000);
        assertThat(script.redis("GET", "gcra:refused")).isEqualTo(before);
    }
}
