package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.LocalRedisCluster;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;

/**
 * On a Redis Cluster, one batch decides the calls of every slot its master owns (the batch function may touch keys
 * of several slots of its node), and a call whose keys another master owns fails alone, with the error the application
 * recognises ({@link RedisErrors#isNotLocal(String)}) and answers by sending that call again by itself.
 */
class ClusterBatchScriptTest {

    private final RateLimitScripts scripts = new RateLimitScripts();
    private final List<String> args = ScriptArguments.limits(ScriptArguments.REDIS_CLOCK,
            List.of(LimitDefinition.builder("batch", 2, 60_000).build()), ShadowMask.NONE);

    @Test
    void oneBatchDecidesTheSlotsOfItsMasterAndACallOfAnotherMasterFailsAlone() {
        try (LocalRedisCluster cluster = LocalRedisCluster.start(3, false)) {
            for (LocalRedisServer master : cluster.masters()) {
                master.command("FUNCTION", "LOAD", scripts.library().source());
            }
            LocalRedisServer here = cluster.masters().get(0);
            List<String> local = new ArrayList<>();
            String elsewhere = null;
            while (local.size() < 3 || elsewhere == null) {
                String key = "rate-limit:{" + UUID.randomUUID() + "}:batch:sw";
                if (cluster.masterOf(cluster.slotOf(key)).equals(here)) {
                    if (local.stream().noneMatch(other -> cluster.slotOf(other) == cluster.slotOf(key))) {
                        local.add(key);
                    }
                } else if (elsewhere == null) {
                    elsewhere = key;
                }
            }
            // three slots of this master, twice each, and one key of another master between them
            List<String> calls = List.of(local.get(0), local.get(1), elsewhere, local.get(2), local.get(0),
                    local.get(1), local.get(2), local.get(0));

            List<Object> replies;
            try (RespConnection redis = here.connect()) {
                replies = byCall((List<?>) redis.command(batch(calls)));
            }

            assertThat(replies).hasSize(calls.size());
            assertThat(String.valueOf(replies.get(2))).as("the call of another master").satisfies(
                    error -> assertThat(RedisErrors.isNotLocal(error)).as(error).isTrue());
            for (int call : new int[] { 0, 1, 3, 4, 5, 6 }) {
                assertThat(allowed(replies.get(call))).as("call %d, %s", call, calls.get(call)).isEqualTo(1L);
            }
            assertThat(allowed(replies.get(7))).as("the third call of a limit of 2").isEqualTo(0L);
            assertThat(cluster.masterOf(cluster.slotOf(elsewhere)).command("EXISTS", elsewhere)).isEqualTo(0L);
        }
    }

    /** {@code FCALL} of the batch function as the application sends it: the first call's keys declared. */
    private String[] batch(List<String> keys) {
        List<String> command = new ArrayList<>(List.of("FCALL", scripts.batchFunction(),
                "1", keys.get(0), Integer.toString(keys.size())));
        for (String key : keys) {
            command.add("1");
            command.add(Integer.toString(args.size()));
            command.add(key);
            command.addAll(args);
        }
        return command.toArray(String[]::new);
    }

    /**
     * The batch's flat reply cut into each call's: an error reply, a compact reply (one negative integer: admitted at
     * once), or the four integers of its one limit.
     */
    private static List<Object> byCall(List<?> flat) {
        List<Object> calls = new ArrayList<>();
        for (int at = 0; at < flat.size();) {
            if (flat.get(at) instanceof RespConnection.RedisErrorReply error) {
                calls.add(error);
                at++;
            } else if (flat.get(at) instanceof Long compact && compact < 0) {
                calls.add(List.of(1L));
                at++;
            } else {
                calls.add(flat.subList(at, at + 4));
                at += 4;
            }
        }
        return calls;
    }

    private static Object allowed(Object reply) {
        return ((List<?>) reply).get(0);
    }
}
