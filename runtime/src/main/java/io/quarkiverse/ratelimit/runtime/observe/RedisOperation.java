package io.quarkiverse.ratelimit.runtime.observe;

/** What a call to Redis was for: the {@code operation} tag of {@code rate_limit.redis.duration}. */
public enum RedisOperation {
    /** The decision of a rate-limited call (every limit of the call in one script). */
    DECIDE("decide"),
    /** Giving back what an admitted call consumed. */
    REFUND("refund"),
    /** Settling a reservation at its real cost. */
    SETTLE("settle"),
    /** Taking or releasing a concurrency lease. */
    CONCURRENCY("concurrency"),
    /** Administration: run-time limits (set, read, refreshed), tenant status, resets, blocks. */
    ADMIN("admin");

    private final String tag;

    RedisOperation(String tag) {
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }
}
