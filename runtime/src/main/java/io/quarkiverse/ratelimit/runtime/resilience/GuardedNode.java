package io.quarkiverse.ratelimit.runtime.resilience;

import java.util.function.Function;
import java.util.function.LongSupplier;

import io.quarkiverse.ratelimit.runtime.redis.RedisTopology;

/**
 * What the guard knows of one Redis node that decides: its circuit breaker, the decisions waiting for it, and when it
 * last answered one. In a cluster each master has its own, so a master that fails or falls silent fails over only the
 * decisions of its own slots, within its own {@code decision-timeout}, however busily the other masters answer.
 */
public final class GuardedNode {

    /** The cluster master ({@code host:port}, or {@link RedisTopology#UNKNOWN}); {@code null} outside a cluster. */
    final String name;
    final CircuitBreaker breaker;
    final PendingDecisions pending;
    /** Until then, failures do not count against the breaker (see {@link #counts}). */
    private final long settledAtNanos;
    /** Long ago (a day before it was made): until the node has answered once, it has no credit. */
    private volatile long lastReplyNanos;

    /**
     * @param pendingDecisions the node's pending decisions, given when it last answered
     * @param lastReply when the node last answered, if something else knows better ({@code null}: its own decisions'
     *        replies, {@link #answered})
     * @param settledAtNanos until when (on the instance's clock) the node's failures do not count against its
     *        breaker
     */
    GuardedNode(String name, CircuitBreaker breaker, Function<LongSupplier, PendingDecisions> pendingDecisions,
            LongSupplier lastReply, long settledAtNanos) {
        this.name = name;
        this.breaker = breaker;
        this.settledAtNanos = settledAtNanos;
        this.lastReplyNanos = settledAtNanos - 86_400_000_000_000L;
        this.pending = pendingDecisions.apply(lastReply != null ? lastReply : this::lastReplyNanos);
    }

    /** A decision of this node was answered: written only when a little time passed, as every decision calls it. */
    /** When this node's breaker next lets a call through (for a 503's Retry-After). */
    public java.time.Duration retryAfter() {
        return breaker.retryAfter();
    }

    void answered(long nowNanos) {
        if (nowNanos - lastReplyNanos > 1_000_000L) {
            lastReplyNanos = nowNanos;
        }
    }

    /**
     * Whether a failure counts against the breaker. A cluster master first seen now has usually just taken over a
     * failed master's slots, and the client may route those slots to the failed master for a moment longer (its slot
     * map is cached): such failures are the old master's, and would open the new one's breaker for nothing. They still
     * fail over, call by call.
     */
    boolean counts(long nowNanos) {
        return nowNanos - settledAtNanos >= 0;
    }

    long lastReplyNanos() {
        return lastReplyNanos;
    }
}
