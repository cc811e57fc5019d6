package io.quarkiverse.ratelimit.runtime.redis;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

/**
 * Where a Redis node's clock stands in this instance's ({@link System#nanoTime()}): so that the wait of a call Redis
 * reserved a later slot for counts from Redis's decision, not from when its reply was read. Counted from the reply, a
 * call whose reply waited on a busy event loop would go late by that much, unnoticed by the late-slot check, and
 * bunch with the calls after it at the service the limit protects.
 * <p>
 * Redis decided after the request left and before its reply was read, so each reply bounds the difference of the two
 * clocks from above: {@code read - redis}. The least bound heard lately (the fastest reply's) is the estimate, and a
 * decision is placed at {@code redis + estimate}: never before its request left, never after its reply was read, and
 * never before Redis really decided but by how far the clocks drift apart while a bound is kept (bounds older than two
 * periods are forgotten). A reply whose bound its own round trip contradicts (the Redis clock was stepped, another node
 * now answers at the same address) starts the estimate again from that reply. In a cluster each master keeps its own.
 */
@Singleton
public class RedisClockReadings {

    /** How long a bound is the newest; it is kept one period more. */
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final RedisTopology topology;
    private final ConcurrentMap<String, NodeClock> nodes = new ConcurrentHashMap<>();

    RedisClockReadings(RedisTopology topology) {
        this.topology = topology;
    }

    /**
     * When, in this instance's clock, the node that owns {@code key} decided at {@code redisMicros} of its own.
     *
     * @param sentNanos when the request was sent (or queued to be sent)
     * @param readNanos when its reply was read
     */
    public long decidedAtNanos(String key, long sentNanos, long readNanos, long redisMicros) {
        return nodes.computeIfAbsent(topology.nodeOf(key), ignored -> new NodeClock())
                .decidedAt(sentNanos, readNanos, redisMicros * 1_000);
    }

    /** One node's estimate: the least bound of this period and of the one before it. */
    private static final class NodeClock {

        private long periodStart;
        private long bound = Long.MAX_VALUE;
        private long previousBound = Long.MAX_VALUE;

        synchronized long decidedAt(long sent, long read, long redisNanos) {
            if (read - periodStart > PERIOD_NANOS) {
                previousBound = read - periodStart > 2 * PERIOD_NANOS ? Long.MAX_VALUE : bound;
                bound = Long.MAX_VALUE;
                periodStart = read;
            }
            long replyBound = read - redisNanos;
            long estimate = Math.min(bound, previousBound);
            if (estimate == Long.MAX_VALUE || replyBound - estimate > read - sent) {
                // nothing heard lately, or the clocks moved: this reply alone says when Redis decided, at the latest
                bound = replyBound;
                previousBound = Long.MAX_VALUE;
                periodStart = read;
                return read;
            }
            bound = Math.min(bound, replyBound);
            return Math.max(sent, redisNanos + Math.min(estimate, replyBound));
        }
    }
}
