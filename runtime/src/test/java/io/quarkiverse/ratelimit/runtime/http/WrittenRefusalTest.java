package io.quarkiverse.ratelimit.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;

/** A rendered 429 is written again only for a refusal that renders the same. */
class WrittenRefusalTest {

    private static RateLimitDecision refused(String name, long remaining, long resetMillis) {
        return new RateLimitDecision(name, 10, Duration.ofHours(1), false, remaining, Duration.ofMillis(resetMillis),
                Duration.ofMillis(resetMillis), false);
    }

    private static WrittenRefusal written(RateLimitDecision decision) {
        return WrittenRefusal.of(new RateLimitExceededException(List.of(decision)), List.of(decision), new String[0],
                new byte[0]);
    }

    private static boolean readsAs(WrittenRefusal written, RateLimitDecision decision) {
        return written.readsAs(new RateLimitExceededException(List.of(decision)), List.of(decision));
    }

    @Test
    void aRefusalInTheSameWholeSecondsReadsTheSame() {
        WrittenRefusal written = written(refused("search", 0, 7_400));
        assertThat(readsAs(written, refused("search", 0, 7_100))).isTrue(); // both 8 s, rounded up
    }

    @Test
    void aRefusalWhoseCountdownCrossedASecondDoesNot() {
        WrittenRefusal written = written(refused("search", 0, 7_400));
        assertThat(readsAs(written, refused("search", 0, 6_900))).isFalse();
    }

    @Test
    void anotherLimitOrOtherUnitsLeftDoNot() {
        WrittenRefusal written = written(refused("search", 0, 7_400));
        assertThat(readsAs(written, refused("export", 0, 7_400))).isFalse();
        assertThat(readsAs(written, refused("search", 1, 7_400))).isFalse();
        assertThat(readsAs(written, new RateLimitDecision("search", 10, Duration.ofHours(1), false, 0,
                Duration.ofMillis(7_400), null, false))).as("a call that can never be admitted").isFalse();
    }
}
