package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

/** Every limit of a call is decided in one script: all admit and all count, or nothing is written. */
class MultiLimitScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.SLIDING_WINDOW_COUNTER);

    @AfterAll
    static void stop() {
        script.close();
    }

    @Test
    void aCallRefusedByTheSecondLimitConsumesNothingFromTheFirst() {
        Limit perSecond = new Limit("{t1}:second", Algorithm.FIXED_WINDOW, 10, 1);
        Limit tight = new Limit("{t1}:tight", Algorithm.SLIDING_WINDOW_COUNTER, 2, 1);
        long now = WINDOW_START_US + 100_000;

        assertThat(script.callAll(now, perSecond, tight)).allMatch(Reply::allowed);
        assertThat(script.callAll(now, perSecond, tight)).allMatch(Reply::allowed);
        String before = script.state("{t1}:second");

        List<Reply> refused = script.callAll(now, perSecond, tight);
        assertThat(refused.get(0).allowed()).isTrue();
        assertThat(refused.get(0).remaining()).as("left now, nothing consumed").isEqualTo(8);
        assertThat(refused.get(1).allowed()).isFalse();
        assertThat(script.state("{t1}:second")).as("the first limit's counter in Redis").isEqualTo(before);
        assertThat(script.fixedWindowUnits("{t1}:second")).isEqualTo(2);
    }

    @Test
    void everyLimitCountsTheCallWhenAllAdmit() {
        Limit a = new Limit("{t2}:a", Algorithm.FIXED_WINDOW, 5, 2);
        Limit b = new Limit("{t2}:b", Algorithm.SLIDING_WINDOW_COUNTER, 7, 3);
        List<Reply> replies = script.callAll(WINDOW_START_US, a, b);
        assertThat(replies).extracting(Reply::remaining).containsExactly(3L, 4L);
        assertThat(script.fixedWindowUnits("{t2}:a")).isEqualTo(2);
        assertThat(script.slidingWindowCounts("{t2}:b")).as("units in this window, units in the one before")
                .containsExactly(3L, 0L);
    }

    @Test
    void aRefusedCallWritesNoKeyAtAll() {
        Limit fresh = new Limit("{t3}:fresh", Algorithm.FIXED_WINDOW, 5, 1);
        Limit impossible = new Limit("{t3}:impossible", Algorithm.FIXED_WINDOW, 1, 2);
        List<Reply> replies = script.callAll(WINDOW_START_US, fresh, impossible);
        assertThat(replies.get(1).retryAfterMillis()).as("cost above the limit: never").isEqualTo(-1);
        assertThat((Long) script.redis("EXISTS", "{t3}:fresh", "{t3}:impossible")).isZero();
    }

    @Test
    void aRefusingShadowLimitLetsTheEnforcedOnesRecordTheCallAndRecordsNothingItself() {
        Limit hourly = new Limit("{t4}:hourly", Algorithm.FIXED_WINDOW, 5, 1);
        Limit tight = new Limit("{t4}:tight", Algorithm.FIXED_WINDOW, 1, 1);
        long now = WINDOW_START_US + 100_000;
        assertThat(script.callAllWithShadow(now, 0b10, hourly, tight)).allMatch(Reply::allowed);

        List<Reply> shadowRefused = script.callAllWithShadow(now, 0b10, hourly, tight);
        assertThat(shadowRefused.get(0).allowed()).isTrue();
        assertThat(shadowRefused.get(0).remaining()).as("the enforced limit counted the call").isEqualTo(3);
        assertThat(shadowRefused.get(1).allowed()).isFalse();
        assertThat(script.fixedWindowUnits("{t4}:hourly")).isEqualTo(2);
        assertThat(script.fixedWindowUnits("{t4}:tight")).as("a refusal records nothing").isEqualTo(1);
    }

    @Test
    void anEnforcedRefusalStillRecordsNothingAnywhere() {
        Limit tight = new Limit("{t5}:tight", Algorithm.FIXED_WINDOW, 1, 1);
        Limit shadow = new Limit("{t5}:shadow", Algorithm.FIXED_WINDOW, 5, 1);
        long now = WINDOW_START_US + 100_000;
        script.callAllWithShadow(now, 0b10, tight, shadow);

        List<Reply> refused = script.callAllWithShadow(now, 0b10, tight, shadow);
        assertThat(refused.get(0).allowed()).isFalse();
        assertThat(refused.get(1).allowed()).isTrue();
        assertThat(script.fixedWindowUnits("{t5}:shadow")).as("the refused call counts in no limit").isEqualTo(1);
    }
}
