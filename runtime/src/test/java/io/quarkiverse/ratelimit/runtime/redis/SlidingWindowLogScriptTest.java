package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

class SlidingWindowLogScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.SLIDING_WINDOW_LOG);

    @AfterAll
    static void stop() {
        script.close();
    }

    @Test
    void admitsTheLimitWithinAnyWindowEvenAtTheSameMicrosecond() {
        assertThat(script.admitUntilRefused("swl:same", 5, WINDOW_START_US)).isEqualTo(5);
        assertThat((Long) script.redis("ZCARD", "swl:same")).as("one unique member per call").isEqualTo(5);
    }

    @Test
    void eachEntryLeavesExactlyOneWindowAfterItCame() {
        script.call("swl:slide", 3, 1, WINDOW_START_US);
        script.call("swl:slide", 3, 1, WINDOW_START_US + 400_000);
        script.call("swl:slide", 3, 1, WINDOW_START_US + 600_000);
        Reply refused = script.call("swl:slide", 3, 1, WINDOW_START_US + 700_000);
        assertThat(refused).isEqualTo(new Reply(false, 0, 900, 300));
        assertThat(script.call("swl:slide", 3, 1, WINDOW_START_US + 999_999).allowed()).isFalse();
        assertThat(script.call("swl:slide", 3, 1, WINDOW_START_US + 1_000_001).allowed()).isTrue();
    }

    @Test
    void memoryIsBoundedByTheLimit() {
        for (long t = 0; t < 5_000_000; t += 10_000) {
            script.call("swl:bounded", 4, 1, WINDOW_START_US + t);
        }
        assertThat((Long) script.redis("ZCARD", "swl:bounded")).isLessThanOrEqualTo(4);
    }

    @Test
    void aCostTakesThatManyEntriesAndARefusalWritesNothing() {
        assertThat(script.call("swl:cost", 5, 3, WINDOW_START_US)).isEqualTo(new Reply(true, 2, 1000, 0));
        assertThat(script.call("swl:cost", 5, 3, WINDOW_START_US).allowed()).isFalse();
        assertThat((Long) script.redis("ZCARD", "swl:cost")).isEqualTo(3);
    }
}
