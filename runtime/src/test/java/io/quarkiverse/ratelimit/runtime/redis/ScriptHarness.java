package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;

/** Runs the shipped script on a real Redis with an explicit clock, so that time is under the test's control. */
final class ScriptHarness implements AutoCloseable {

    static final long WINDOW_MS = 1000;
    /** A clock value on a window boundary, in microseconds. */
    static final long WINDOW_START_US = 1_700_000_000L * 1_000_000;

    private final LocalRedisServer server = LocalRedisServer.start();
    private final RespConnection redis = server.connect();
    private final RateLimitScripts scripts = new RateLimitScripts();
    private final LuaScript script = scripts.rateLimit();
    private final Algorithm algorithm;

    ScriptHarness(Algorithm algorithm) {
        this.algorithm = algorithm;
    }

    /** One limit of this harness's algorithm: {allowed, remaining, reset_ms, retry_after_ms}. */
    Reply call(String key, long limit, long cost, long nowMicros) {
        return callAll(nowMicros, new Limit(key, algorithm, limit, cost)).get(0);
    }

    /** Gives back {@code cost} of one limit of this harness's algorithm. */
    void refund(String key, long limit, long cost, long nowMicros) {
        redis.command(command(scripts.refund(), nowMicros, new Limit(key, algorithm, limit, cost)));
    }

    /** Several limits in one call, as the application sends them. */
    List<Reply> callAll(long nowMicros, Limit... limits) {
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.command(command(script, nowMicros, limits));
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < reply.size(); i += 4) {
            replies.add(new Reply(reply.get(i) == 1, reply.get(i + 1), reply.get(i + 2), reply.get(i + 3)));
        }
        return replies;
    }

    static String[] command(LuaScript script, long nowMicros, Limit... limits) {
        List<String> command = new ArrayList<>(List.of("EVAL", script.source(), Integer.toString(limits.length)));
        for (Limit limit : limits) {
            command.add(limit.key());
        }
        command.add(Long.toString(nowMicros));
        for (Limit limit : limits) {
            command.addAll(List.of(RateLimitScripts.moduleName(limit.algorithm()), Long.toString(limit.limit()),
                    Long.toString(WINDOW_MS), Long.toString(limit.cost()), Long.toString(limit.burst())));
        }
        return command.toArray(String[]::new);
    }

    LocalRedisServer server() {
        return server;
    }

    LuaScript script() {
        return script;
    }

    RateLimitScripts scripts() {
        return scripts;
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

    /** @param burst 0 for the limit */
    record Limit(String key, Algorithm algorithm, long limit, long cost, long burst) {
        Limit(String key, Algorithm algorithm, long limit, long cost) {
            this(key, algorithm, limit, cost, 0);
        }
    }

    record Reply(boolean allowed, long remaining, long resetMillis, long retryAfterMillis) {
    }
}
