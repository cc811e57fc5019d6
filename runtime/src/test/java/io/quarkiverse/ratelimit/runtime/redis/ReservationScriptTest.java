package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

/**
 * A call that may wait: the script reserves the earliest slot every limit of the call admits, within the call's max
 * wait, and records the call at that time; later calls queue behind it; a call whose wait would be longer is refused
 * and records nothing.
 */
class ReservationScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.GCRA);

    @AfterAll
    static void stop() {
        script.close();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "GCRA", "TOKEN_BUCKET" })
    void callsBeyondTheBurstQueueOneIntervalApartUntilTheMaxWait(Algorithm algorithm) {
        Limit limit = new Limit("queue:" + algorithm, algorithm, 4, 1);
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            Reply reply = script.callAllWaiting(WINDOW_START_US, 1000, limit).get(0);
            waits.add(reply.allowed() ? reply.retryAfterMillis() : -reply.retryAfterMillis());
        }
        assertThat(waits).as("4 at once, then one slot every 250 ms, first come first served; the 9th would wait"
                + " 1250 ms > 1000 ms and is refused with that retry time").containsExactly(0L, 0L, 0L, 0L, 250L, 500L,
                        750L, 1000L, -1250L);
        assertThat(script.callAllWaiting(WINDOW_START_US + 100_000, 1000, limit).get(0).retryAfterMillis())
                .as("the refused call reserved nothing: 100 ms later the next slot is 1150 ms away")
                .isEqualTo(1150);
    }

    @Test
    void aQueueKeepsTheLimitsRateWhenItsIntervalIsNoWholeMillisecond() {
        List<LimitDefinition> limit = List.of(LimitDefinition.builder("forty-eight", 48, 1000).algorithm(Algorithm.GCRA)
                .burst(1).maxWait(2000).build());
        List<String> key = List.of("queue:forty-eight");
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            waits.add(script.decide(WINDOW_START_US, key, limit).get(0).retryAfterMillis());
        }
        assertThat(waits.get(1)).as("one interval: 20.833 ms, waited as 21").isEqualTo(21);
        assertThat(waits.get(47)).as("47 intervals: 979.2 ms; slots rounded up to the millisecond one by one would"
                + " make it 987 and the queue 2 % slower than its limit").isEqualTo(980);
    }

    @Test
    void aCallThatWaitsIsToldTheClockItsWaitCountsFrom() {
        List<LimitDefinition> limits = List.of(
                LimitDefinition.builder("clock-second", 1, 1000).algorithm(Algorithm.GCRA).burst(1).maxWait(5000).build(),
                LimitDefinition.builder("clock-minute", 100, 60_000).algorithm(Algorithm.GCRA).maxWait(5000).build());
        List<String> keys = List.of("{clock}:second", "{clock}:minute");
        assertThat(script.decideReply(WINDOW_START_US, keys, limits)).as("admitted at once: four values a limit")
                .containsExactly(1L, 0L, 1000L, 0L, 1L, 99L, 600L, 0L);
        assertThat(script.decideReply(WINDOW_START_US + 200_000, keys, limits))
                .as("admitted for the slot 800 ms later: the decision's clock after the limits' values")
                .containsExactly(1L, 0L, 1800L, 800L, 1L, 99L, 1400L, 800L, WINDOW_START_US + 200_000);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "GCRA", "TOKEN_BUCKET" })
    void aCallThatMayNotWaitIsRefusedWhileSlotsAreReserved(Algorithm algorithm) {
        Limit limit = new Limit("reserved:" + algorithm, algorithm, 4, 1);
        for (int i = 0; i < 4; i++) {
            assertThat(script.callAll(WINDOW_START_US, limit).get(0).allowed()).isTrue();
        }
        assertThat(script.callAllWaiting(WINDOW_START_US, 1000, limit).get(0).retryAfterMillis()).isEqualTo(250);
        Reply atTheSlot = script.callAll(WINDOW_START_US + 250_000, limit).get(0);
        assertThat(atTheSlot.allowed()).as("the slot at 250 ms is the waiting call's").isFalse();
        assertThat(atTheSlot.retryAfterMillis()).isEqualTo(250);
        assertThat(script.callAll(WINDOW_START_US + 500_000, limit).get(0).allowed()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "GCRA", "TOKEN_BUCKET" })
    void theKeyLivesAtLeastUntilTheReservedSlot(Algorithm algorithm) {
        Limit limit = new Limit("ttl:" + algorithm, algorithm, 4, 1);
        long now = script.redisTimeMicros(); // the TTL runs on Redis's own clock
        for (int i = 0; i < 8; i++) {
            script.callAllWaiting(now, 2000, limit);
        }
        assertThat((Long) script.redis("PTTL", limit.key())).as("4 slots reserved up to 1 s ahead, full again 1 s later")
                .isGreaterThan(1500);
    }

    @Test
    void everyLimitOfTheCallRecordsItAtTheLatestSlot() {
        Limit perSecond = new Limit("multi:second", Algorithm.GCRA, 4, 1);
        Limit bucket = new Limit("multi:bucket", Algorithm.TOKEN_BUCKET, 2, 1);
        script.callAll(WINDOW_START_US, bucket);
        script.callAll(WINDOW_START_US, bucket);
        List<Reply> waiting = script.callAllWaiting(WINDOW_START_US, 1000, perSecond, bucket);
        assertThat(waiting).as("the bucket (2 per second) has its next token in 500 ms; both limits say the wait")
                .allSatisfy(reply -> {
                    assertThat(reply.allowed()).isTrue();
                    assertThat(reply.retryAfterMillis()).isEqualTo(500);
                });
        assertThat(script.callAll(WINDOW_START_US, perSecond).get(0).remaining())
                .as("the per-second limit recorded the call at its slot, 500 ms ahead (its next 750 ms taken): after"
                        + " this call nothing is left now; recorded now, 2 would be")
                .isEqualTo(0);
    }

    @Test
    void aCountingAlgorithmNeverReserves() {
        Limit window = new Limit("fixed:noreserve", Algorithm.FIXED_WINDOW, 2, 1);
        script.callAll(WINDOW_START_US, window);
        script.callAll(WINDOW_START_US, window);
        Reply refused = script.callAllWaiting(WINDOW_START_US, 5000, window).get(0);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfterMillis()).isEqualTo(1000);
    }

    @Test
    void aWaitBeyondOneLimitsRetryIsRefusedWhenAnotherLimitCannotWaitThatLong() {
        Limit perSecond = new Limit("never:second", Algorithm.GCRA, 1, 1);
        script.callAll(WINDOW_START_US, perSecond);
        Reply refused = script.callAllWaiting(WINDOW_START_US, 999, perSecond).get(0);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfterMillis()).isEqualTo(1000);
    }
}
