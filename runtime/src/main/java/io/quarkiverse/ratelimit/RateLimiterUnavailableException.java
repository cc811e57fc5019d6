package io.quarkiverse.ratelimit;

import java.time.Duration;

/**
 * Thrown instead of invoking a {@link RateLimited} method whose limit is {@link FailureMode#FAIL_CLOSED} when Redis
 * cannot decide. Quarkus REST answers it with {@code 503 Service Unavailable}.
 */
public class RateLimiterUnavailableException extends RuntimeException {

    private final String limitName;
    private final transient Duration retryAfter;

    public RateLimiterUnavailableException(String limitName, Duration retryAfter, Throwable cause) {
        super("Rate limit '" + limitName + "' cannot be decided: " + (cause == null ? "Redis unavailable"
                : cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage())),
                cause, false, false);
        this.limitName = limitName;
        this.retryAfter = retryAfter;
    }

    public String limitName() {
        return limitName;
    }

    /** When to try again: when the circuit breaker next lets a call through to Redis. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
