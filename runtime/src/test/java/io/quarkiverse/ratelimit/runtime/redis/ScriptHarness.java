package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;

/** Runs one shipped script on a real Redis with an explicit clock, so that time is under the test's control. */
final class ScriptHarness implements AutoCloseable {

    static final long WINDOW_MS = 1000;
    /** A clock value on a window boundary, in microseconds. */
    static final long WINDOW_START_US = 1_700_000_000L * 1_000_000;

    private final LocalRedisServer server = LocalRedisServer.start();
    private final RespConnection redis = server.connect();
    private final LuaScript script;

    ScriptHarness(String file) {
        this.script = LuaScript.load(file);
    }

    /** {allowed, remaining, reset_ms, retry_after_ms} */
    Reply call(String key, long limit, long cost, long nowMicros) {
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.command("EVAL", script.source(), "1", key, Long.toString(limit),
                Long.toString(WINDOW_MS), Long.toString(cost), Long.toString(nowMicros));
        return new Reply(reply.get(0) == 1, reply.get(1), reply.get(2), reply.get(3));
    }

    /** Admits calls of cost 1 until the first refusal; the number admitted. */
    int admitUntilRefused(String key, long limit, long nowMicros) {
        int admitted = 0;
        while (call(key, limit, 1, nowMicros).allowed()) {
            admitted++;
        }
        return admitted;
    }

    Object redis(String... command) {
        return redis.command(command);
    }

    List<String> hash(String key) {
        @SuppressWarnings("unchecked")
        List<String> fields = (List<String>) redis.command("HGETALL", key);
        return new ArrayList<>(fields);
    }

    @Override
    public void close() {
        redis.close();
        server.close();
    }

    record Reply(boolean allowed, long remaining, long resetMillis, long retryAfterMillis) {
    }
}
