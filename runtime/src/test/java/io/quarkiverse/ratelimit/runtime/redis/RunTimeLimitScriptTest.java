package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;

/** A tenant's run-time limit, in the hash the script reads in the same atomic call, replaces the limit it was sent. */
class RunTimeLimitScriptTest {

    private static ScriptHarness harness;

    @BeforeAll
    static void startRedis() {
        harness = new ScriptHarness(Algorithm.FIXED_WINDOW);
    }

    @AfterAll
    static void stopRedis() {
        harness.close();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void theTenantsRunTimeLimitReplacesTheSentOneForItsFieldOnly(Algorithm algorithm) {
        String tag = "{tenant-" + algorithm + "}";
        String overrides = "rl:" + tag + ":limits";
        harness.redis("HSET", overrides, "labels", "7");
        Limit labels = new Limit("rl:" + tag + ":labels", algorithm, 3, 1, 0, "labels");
        Limit rates = new Limit("rl:" + tag + ":rates", algorithm, 3, 1, 0, "rates");

        int labelsAdmitted = 0;
        int ratesAdmitted = 0;
        for (int i = 0; i < 10; i++) {
            var replies = harness.callWithOverrides(WINDOW_START_US, overrides, labels);
            assertThat(replies.get(0).limit()).isEqualTo(7);
            labelsAdmitted += replies.get(0).allowed() ? 1 : 0;
            var rateReplies = harness.callWithOverrides(WINDOW_START_US, overrides, rates);
            assertThat(rateReplies.get(0).limit()).isEqualTo(3);
            ratesAdmitted += rateReplies.get(0).allowed() ? 1 : 0;
        }

        assertThat(labelsAdmitted).as("the override, and the burst follows it when not set").isEqualTo(7);
        assertThat(ratesAdmitted).as("no override for this field: the limit sent").isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aLimitWithoutFieldIgnoresTheHash(Algorithm algorithm) {
        String tag = "{fieldless-" + algorithm + "}";
        String overrides = "rl:" + tag + ":limits";
        harness.redis("HSET", overrides, "labels", "7");
        Limit global = new Limit("rl:" + tag + ":global", algorithm, 2, 1, 0, "");

        long admitted = 0;
        for (int i = 0; i < 5; i++) {
            admitted += harness.callWithOverrides(WINDOW_START_US, overrides, global).get(0).allowed() ? 1 : 0;
        }
        assertThat(admitted).isEqualTo(2);
    }
}
