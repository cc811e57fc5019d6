package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;

/** lua/concurrency.lua: at most `limit` leases; released by ZREM; a crashed holder's leases expire. */
class ConcurrencyScriptTest {

    static final LocalRedisServer server = LocalRedisServer.start();
    static final RespConnection redis = server.connect();
    static final LuaScript script = new RateLimitScripts().concurrency();
    static final ConcurrencyDefinition LIMIT = new ConcurrencyDefinition("limit", 3, 5000, FailureMode.DEFAULT,
            ReturnKind.UNI);

    @AfterAll
    static void stop() {
        redis.close();
        server.close();
    }

    @SuppressWarnings("unchecked")
    static List<Long> acquire(String key, long nowMicros, String leaseId) {
        List<String> command = new ArrayList<>(List.of("EVAL", script.source(), "2", key, key + ":" + leaseId));
        command.addAll(ScriptArguments.concurrency(Long.toString(nowMicros), LIMIT, leaseId));
        return (List<Long>) redis.command(command.toArray(String[]::new));
    }

    static Object cancel(String key, String leaseId) {
        List<String> command = new ArrayList<>(List.of("EVAL", new RateLimitScripts().cancelLease().source(), "2", key,
                key + ":" + leaseId));
        command.addAll(ScriptArguments.cancelLease(LIMIT, leaseId));
        return redis.command(command.toArray(String[]::new));
    }

    @Test
    void aLeaseGivenUpAfterItWasGrantedIsRemoved() {
        acquire("cl:given-up", WINDOW_START_US, "a");
        assertThat(cancel("cl:given-up", "a")).isEqualTo(1L);
        assertThat(redis.command("ZCARD", "cl:given-up")).isEqualTo(0L);
        assertThat((Long) redis.command("PTTL", "cl:given-up:a")).as("the mark expires with one lease")
                .isBetween(1L, 5000L);
    }

    @Test
    void aLeaseGivenUpBeforeItRunsIsNeverGranted() {
        assertThat(cancel("cl:given-up-first", "a")).isEqualTo(0L);
        assertThat(acquire("cl:given-up-first", WINDOW_START_US, "a")).containsExactly(0L, 0L, 1L);
        assertThat(redis.command("EXISTS", "cl:given-up-first")).as("nothing written").isEqualTo(0L);
        assertThat(acquire("cl:given-up-first", WINDOW_START_US, "b")).as("another call").containsExactly(1L, 1L, 0L);
    }

    @Test
    void atMostTheLimitOfLeasesAreHeld() {
        assertThat(acquire("cl:limit", WINDOW_START_US, "a")).containsExactly(1L, 1L, 0L);
        assertThat(acquire("cl:limit", WINDOW_START_US, "b")).containsExactly(1L, 2L, 0L);
        assertThat(acquire("cl:limit", WINDOW_START_US, "c")).containsExactly(1L, 3L, 0L);
        assertThat(acquire("cl:limit", WINDOW_START_US + 1_000_000, "d")).as("refused until the oldest lease expires")
                .containsExactly(0L, 3L, 4000L);
    }

    @Test
    void releasingALeaseFreesItsSlot() {
        acquire("cl:release", WINDOW_START_US, "a");
        acquire("cl:release", WINDOW_START_US, "b");
        acquire("cl:release", WINDOW_START_US, "c");
        redis.command("ZREM", "cl:release", "b");
        assertThat(acquire("cl:release", WINDOW_START_US, "d").get(0)).isEqualTo(1L);
    }

    @Test
    void theLeasesOfACrashedHolderExpireByThemselves() {
        acquire("cl:crash", WINDOW_START_US, "a");
        acquire("cl:crash", WINDOW_START_US, "b");
        acquire("cl:crash", WINDOW_START_US, "c");
        assertThat(acquire("cl:crash", WINDOW_START_US + 4_999_000, "d").get(0)).isZero();
        assertThat(acquire("cl:crash", WINDOW_START_US + 5_000_000, "d")).as("all three leases expired")
                .containsExactly(1L, 1L, 0L);
    }
}
