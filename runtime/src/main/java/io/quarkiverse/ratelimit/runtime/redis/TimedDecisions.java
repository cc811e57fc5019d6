package io.quarkiverse.ratelimit.runtime.redis;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

import io.quarkiverse.ratelimit.RateLimitDecision;

/**
 * The decisions of a call Redis reserved a later slot for, with when Redis took them in this instance's clock
 * ({@link RedisClockReadings}): the instant the call's wait counts from. A list, so that it travels every step a
 * call's decisions take (failure modes, metrics, the caller's shaping) unchanged.
 */
public final class TimedDecisions extends AbstractList<RateLimitDecision> implements RandomAccess {

    private final List<RateLimitDecision> decisions;
    private final long decidedAtNanos;

    TimedDecisions(List<RateLimitDecision> decisions, long decidedAtNanos) {
        this.decisions = decisions;
        this.decidedAtNanos = decidedAtNanos;
    }

    /**
     * When Redis took {@code decisions}, in {@link System#nanoTime()}'s clock; {@code otherwise} for decisions that do
     * not say (taken without Redis, or not waiting).
     */
    public static long decidedAtNanos(List<RateLimitDecision> decisions, long otherwise) {
        return decisions instanceof TimedDecisions timed ? timed.decidedAtNanos : otherwise;
    }

    @Override
    public RateLimitDecision get(int index) {
        return decisions.get(index);
    }

    @Override
    public int size() {
        return decisions.size();
    }
}
