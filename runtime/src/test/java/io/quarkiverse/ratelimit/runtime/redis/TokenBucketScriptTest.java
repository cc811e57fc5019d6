package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

class TokenBucketScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.TOKEN_BUCKET);

    @AfterAll
    static void stop() {
        script.close();
    }

    @Test
    void aFullBucketAllowsABurstOfTheLimit() {
        assertThat(script.admitUntilRefused("tb:burst", 10, WINDOW_START_US)).isEqualTo(10);
    }

    @Test
    void tokensRefillContinuouslyAtTheLimitPerWindow() {
        script.admitUntilRefused("tb:refill", 10, WINDOW_START_US);
        Reply refused = script.call("tb:refill", 10, 1, WINDOW_START_US);
        assertThat(refused).as("one token every 100 ms").isEqualTo(new Reply(false, 0, 1000, 100));
        assertThat(script.call("tb:refill", 10, 1, WINDOW_START_US + 99_000).allowed()).isFalse();
        assertThat(script.call("tb:refill", 10, 1, WINDOW_START_US + 100_000).allowed()).isTrue();
        assertThat(script.admitUntilRefused("tb:refill", 10, WINDOW_START_US + 350_000)).isEqualTo(2);
    }

    @Test
    void theBucketNeverHoldsMoreThanTheLimit() {
        script.call("tb:cap", 5, 1, WINDOW_START_US);
        assertThat(script.admitUntilRefused("tb:cap", 5, WINDOW_START_US + 60_000_000)).isEqualTo(5);
    }

    @Test
    void aBurstSmallerThanTheLimitCapsTheBucketButNotTheRate() {
        var limit = new ScriptHarness.Limit("tb:burst3", Algorithm.TOKEN_BUCKET, 10, 1, 3);
        int admitted = 0;
        while (script.callAll(WINDOW_START_US, limit).get(0).allowed()) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(3);
        assertThat(script.callAll(WINDOW_START_US + 100_000, limit).get(0).allowed()).as("refill: 10 per second")
                .isTrue();
    }

    @Test
    void theKeyLivesUntilTheBucketIsFullAgain() {
        Reply taken = script.call("tb:ttl", 10, 4, WINDOW_START_US);
        assertThat(taken).isEqualTo(new Reply(true, 6, 400, 0));
        assertThat((Long) script.redis("PTTL", "tb:ttl")).isBetween(1L, 400L);
    }
}
