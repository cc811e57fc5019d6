package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

class SlidingWindowCounterScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.SLIDING_WINDOW_COUNTER);

    @AfterAll
    static void stop() {
        script.close();
    }

    @Test
    void admitsTheLimitInAFreshWindow() {
        assertThat(script.admitUntilRefused("swc:fresh", 10, WINDOW_START_US + 500_000)).isEqualTo(10);
    }

    @Test
    void thePreviousWindowWeighsInProportionToItsOverlap() {
        assertThat(script.admitUntilRefused("swc:weight", 10, WINDOW_START_US + 900_000)).isEqualTo(10);
        // At 30% into the next window, 70% of the previous 10 still count: 3 more fit.
        assertThat(script.admitUntilRefused("swc:weight", 10, WINDOW_START_US + 1_300_000)).isEqualTo(3);
        // At 80%, 2 of the previous window count, plus the 3 just admitted: 5 more fit.
        assertThat(script.admitUntilRefused("swc:weight", 10, WINDOW_START_US + 1_800_000)).isEqualTo(5);
    }

    @Test
    void retryAfterIsWhenEnoughOfThePreviousWindowHasSlidOut() {
        script.admitUntilRefused("swc:retry", 10, WINDOW_START_US + 900_000);
        Reply refused = script.call("swc:retry", 10, 1, WINDOW_START_US + 1_000_000);
        assertThat(refused).isEqualTo(new Reply(false, 0, 1000, 100));
        assertThat(script.call("swc:retry", 10, 1, WINDOW_START_US + 1_099_000).allowed()).isFalse();
        assertThat(script.call("swc:retry", 10, 1, WINDOW_START_US + 1_100_000).allowed()).isTrue();
    }

    @Test
    void retryAfterCrossesIntoTheNextWindowWhenTheCurrentOneIsFull() {
        script.admitUntilRefused("swc:full", 4, WINDOW_START_US + 200_000);
        // The current window holds 4 of 4: in the next one they weigh 4 * (1 - elapsed); 1 fits once that is <= 3.
        Reply refused = script.call("swc:full", 4, 1, WINDOW_START_US + 200_000);
        assertThat(refused).isEqualTo(new Reply(false, 0, 800 + 1000, 800 + 250));
        assertThat(script.call("swc:full", 4, 1, WINDOW_START_US + 1_249_000).allowed()).isFalse();
        assertThat(script.call("swc:full", 4, 1, WINDOW_START_US + 1_250_000).allowed()).isTrue();
    }

    @Test
    void neverAdmitsMoreThanTheLimitWithinOneAlignedWindow() {
        long[] admittedPerWindow = new long[3];
        for (long t = 0; t < 3_000_000; t += 50_000) {
            admittedPerWindow[(int) (t / 1_000_000)] += script.admitUntilRefused("swc:bound", 7, WINDOW_START_US + t);
        }
        assertThat(admittedPerWindow[0]).isEqualTo(7);
        for (long admitted : admittedPerWindow) {
            assertThat(admitted).isBetween(1L, 7L);
        }
    }

    @Test
    void theResetAndTheKeyLastUntilTheCountNoLongerWeighs() {
        Reply admitted = script.call("swc:ttl", 10, 1, WINDOW_START_US + 400_000);
        assertThat(admitted.resetMillis()).as("end of the next window").isEqualTo(600 + 1000);
        assertThat((Long) script.redis("PTTL", "swc:ttl")).isBetween(1001L, 1600L);
    }

    @Test
    void aRefusedCallWritesNothing() {
        script.admitUntilRefused("swc:refused", 2, WINDOW_START_US);
        var before = script.state("swc:refused");
        script.call("swc:refused", 2, 1, WINDOW_START_US + 10_000);
        assertThat(script.state("swc:refused")).isEqualTo(before);
    }
}
