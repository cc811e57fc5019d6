package org.acme.bench;

import java.util.concurrent.CompletionStage;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The baseline's script: a minimal sliding window counter (Redis TIME, two window keys in one hash slot, one increment,
 * an expiry), as a hand-written limiter would send it.
 */
final class MinimalSlidingWindow {

    static final String SCRIPT = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
            local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
            local w = math.floor(now / window)
            local current_key, previous_key = KEYS[1 + w % 2], KEYS[1 + (w + 1) % 2]
            local previous = tonumber(redis.call('GET', previous_key) or '0')
            local current = tonumber(redis.call('GET', current_key) or '0')
            if previous * (window - (now - w * window)) / window + current + 1 > limit then
              return { 0, current }
            end
            redis.call('INCR', current_key)
            redis.call('PEXPIRE', current_key, window * 2)
            return { 1, current + 1 }
            """;

    private MinimalSlidingWindow() {
    }

    /** Every decision admits: a billion per hour. */
    static final String LIMIT = "1000000000";
    static final String WINDOW_MS = "3600000";

    /**
     * The script sent through Quarkus's Redis client, with no rate limiter code around it, every call pipelined on one
     * connection: the most any limiter on that client could get from it.
     */
    static final class ThroughQuarkusClient implements AutoCloseable {

        private final RedisConnection connection;
        private final String sha;

        /** Connects and loads the script; blocks, so not on an event loop. */
        ThroughQuarkusClient(Redis redis) {
            this.connection = redis.connect().toCompletionStage().toCompletableFuture().join();
            this.sha = connection.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT)).toCompletionStage()
                    .toCompletableFuture().join().toString();
        }

        CompletionStage<Response> decide(String tenant) {
            return connection.send(Request.cmd(Command.EVALSHA).arg(sha).arg(2).arg("{" + tenant + "}:a")
                    .arg("{" + tenant + "}:b").arg(LIMIT).arg(WINDOW_MS)).toCompletionStage();
        }

        @Override
        public void close() {
            connection.close();
        }
    }
}
