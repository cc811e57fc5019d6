package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

/**
 * An upstream's retry time pauses a limit of outgoing calls: nothing is admitted before it, then one call, then calls
 * at the limit's rate; the counting windows are left alone.
 */
class PauseScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.GCRA);

    @AfterAll
    static void stop() {
        script.close();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "GCRA", "TOKEN_BUCKET" })
    void nothingBeforeTheRetryTimeThenOneThenTheRate(Algorithm algorithm) {
        LimitDefinition limit = LimitDefinition.builder("carrier", 10, 1000).algorithm(algorithm).build();
        List<String> key = List.of("pause:" + UUID.randomUUID());
        assertThat(script.pause(WINDOW_START_US, key, List.of(limit), 2000)).isEqualTo(1);

        Reply before = decide(WINDOW_START_US + 1_999_000, key, limit);
        assertThat(before.allowed()).as("a full bucket, paused: nothing before 2 s").isFalse();
        assertThat(before.retryAfterMillis()).isEqualTo(1);
        assertThat(decide(WINDOW_START_US + 2_000_000, key, limit).allowed()).isTrue();
        assertThat(decide(WINDOW_START_US + 2_000_000, key, limit).allowed()).as("one call, not the burst").isFalse();
        assertThat(decide(WINDOW_START_US + 2_100_000, key, limit).allowed()).as("then 10 a second").isTrue();
    }

    @Test
    void aLaterSlotAlreadyReservedStays() {
        LimitDefinition limit = LimitDefinition.builder("carrier", 1, 1000).algorithm(Algorithm.GCRA).burst(1)
                .maxWait(10_000).build();
        List<String> key = List.of("pause:" + UUID.randomUUID());
        for (int i = 0; i < 5; i++) {
            script.decide(WINDOW_START_US, key, List.of(limit)); // slots at 0 .. 4 s
        }
        script.pause(WINDOW_START_US, key, List.of(limit), 2000);
        assertThat(decide(WINDOW_START_US + 4_500_000, key, limit).retryAfterMillis())
                .as("the reservations up to 4 s hold; the next slot is 5 s").isEqualTo(500);
    }

    @Test
    void aCountingWindowIsNotPaused() {
        LimitDefinition limit = LimitDefinition.builder("carrier", 10, 1000).algorithm(Algorithm.FIXED_WINDOW).build();
        List<String> key = List.of("pause:" + UUID.randomUUID());
        assertThat(script.pause(WINDOW_START_US, key, List.of(limit), 2000)).isZero();
        assertThat(decide(WINDOW_START_US, key, limit).allowed()).isTrue();
    }

    private static Reply decide(long nowMicros, List<String> key, LimitDefinition limit) {
        return script.decide(nowMicros, key, List.of(limit)).get(0);
    }
}
