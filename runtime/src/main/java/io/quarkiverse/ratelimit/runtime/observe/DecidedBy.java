package io.quarkiverse.ratelimit.runtime.observe;

/** What decided a limit for one call: the {@code decided_by} tag of {@code rate_limit.decisions}. */
public enum DecidedBy {
    /** The limit's script on Redis. */
    REDIS("redis"),
    /**
     * A slice of the limit that Redis leased this instance and counted at once (leases): no Redis call. The decision's
     * remaining is what the slice still holds, the least this instance is sure to admit, not what the limit has left.
     */
    LEASE("lease"),
    /** A refusal this instance still held from Redis (the refusal cache): no Redis call. */
    LOCAL_CACHE("local_cache"),
    /** Redis could not decide; this instance's local limiter did (failure mode {@code local}). */
    FALLBACK("fallback"),
    /** Redis could not decide; the call was admitted (failure mode {@code fail-open}). */
    FAIL_OPEN("fail_open"),
    /** Redis could not decide; the call was refused with 503 (failure mode {@code fail-closed}). */
    FAIL_CLOSED("fail_closed");

    private final String tag;

    DecidedBy(String tag) {
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }
}
