package io.quarkiverse.ratelimit;

/** What a limit does when Redis cannot decide in time (down, paused, timing out, or the circuit breaker is open). */
public enum FailureMode {

    /** Use {@code quarkus.rate-limit.failure-mode}. */
    DEFAULT,

    /** Admit the call; the decision is marked degraded. For limits whose only job is fairness. */
    FAIL_OPEN,

    /**
     * Refuse the call with {@link RateLimiterUnavailableException}: {@code 503 Service Unavailable} and
     * {@code Retry-After}, not 429, since the client did nothing wrong. For limits that protect something expensive.
     */
    FAIL_CLOSED,

    /**
     * Decide with an in-process limiter of this instance (bounded memory), allowing {@code limit / instances} per
     * window, where {@code instances} is how many instances the fleet last counted in Redis (each announces itself) or
     * {@code quarkus.rate-limit.local-fallback.expected-instances} when set, so that the fleet as a whole stays near the
     * limit. The decision is marked degraded.
     */
    LOCAL
}
