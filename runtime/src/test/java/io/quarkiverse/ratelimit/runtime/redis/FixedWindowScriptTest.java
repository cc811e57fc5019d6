package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

class FixedWindowScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.FIXED_WINDOW);

    @AfterAll
    static void stop() {
        script.close();
    }

    @Test
    void admitsTheLimitAndCountsDownTheRemaining() {
        long now = WINDOW_START_US + 250_000;
        assertThat(script.call("fw:countdown", 3, 1, now)).isEqualTo(new Reply(true, 2, 750, 0));
        assertThat(script.call("fw:countdown", 3, 1, now)).isEqualTo(new Reply(true, 1, 750, 0));
        assertThat(script.call("fw:countdown", 3, 1, now)).isEqualTo(new Reply(true, 0, 750, 0));
        assertThat(script.call("fw:countdown", 3, 1, now)).isEqualTo(new Reply(false, 0, 750, 750));
    }

    @Test
    void theFirstCallOfTheNextWindowIsAdmittedAgain() {
        // Written early in the window: the key's TTL runs on Redis's real clock, not on the test's.
        assertThat(script.admitUntilRefused("fw:rollover", 5, WINDOW_START_US + 100_000)).isEqualTo(5);
        assertThat(script.call("fw:rollover", 5, 1, WINDOW_START_US + 999_999).allowed()).isFalse();
        assertThat(script.call("fw:rollover", 5, 1, WINDOW_START_US + 1_000_000)).isEqualTo(new Reply(true, 4, 1000, 0));
    }

    @Test
    void aRefusedCallWritesNothing() {
        long now = WINDOW_START_US + 100_000;
        script.admitUntilRefused("fw:refused", 2, now);
        var before = script.state("fw:refused");
        script.call("fw:refused", 2, 1, now);
        assertThat(script.state("fw:refused")).isEqualTo(before);
    }

    @Test
    void theKeyExpiresWhenItsWindowEnds() {
        script.call("fw:ttl", 10, 1, WINDOW_START_US + 400_000);
        assertThat((Long) script.redis("PTTL", "fw:ttl")).isBetween(1L, 600L);
    }

    @Test
    void aCostAboveTheRemainingIsRefusedWithoutConsuming() {
        long now = WINDOW_START_US;
        assertThat(script.call("fw:cost", 5, 4, now)).isEqualTo(new Reply(true, 1, 1000, 0));
        assertThat(script.call("fw:cost", 5, 2, now)).isEqualTo(new Reply(false, 1, 1000, 1000));
        assertThat(script.call("fw:cost", 5, 1, now)).isEqualTo(new Reply(true, 0, 1000, 0));
    }

    @Test
    void aCostAboveTheLimitCanNeverBeAdmitted() {
        assertThat(script.call("fw:never", 5, 6, WINDOW_START_US).retryAfterMillis()).isEqualTo(-1);
    }
}
