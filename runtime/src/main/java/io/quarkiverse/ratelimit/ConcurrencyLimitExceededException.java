package io.quarkiverse.ratelimit;

import java.time.Duration;

/** Thrown instead of invoking a {@link ConcurrencyLimited} method whose tenant already has its limit in flight. */
public class ConcurrencyLimitExceededException extends RuntimeException {

    private final String limitName;
    private final int limit;
    private final Duration retryAfter;

    public ConcurrencyLimitExceededException(String limitName, int limit) {
        this(limitName, limit, null);
    }

    /**
     * @param retryAfter when the oldest call in flight frees its slot at the latest (its lease ends); {@code null} when
     *        unknown (decided by this instance alone)
     */
    public ConcurrencyLimitExceededException(String limitName, int limit, Duration retryAfter) {
        super("Concurrency limit '" + limitName + "' of " + limit + " calls in flight reached", null, false, false);
        this.limitName = limitName;
        this.limit = limit;
        this.retryAfter = retryAfter;
    }

    public String limitName() {
        return limitName;
    }

    public int limit() {
        return limit;
    }

    /**
     * When a slot is free at the latest: the oldest lease's end, as Redis computed it (calls usually end sooner);
     * {@code null} when unknown.
     */
    public Duration retryAfter() {
        return retryAfter;
    }
}
