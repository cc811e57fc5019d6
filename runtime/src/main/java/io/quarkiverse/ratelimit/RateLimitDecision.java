package io.quarkiverse.ratelimit;

import java.time.Duration;

/**
 * The outcome of one limit for one call.
 *
 * @param limitName the limit's name (the {@code RateLimit-Policy} item name)
 * @param limit units allowed per window
 * @param window the window length
 * @param allowed whether the call was admitted by this limit
 * @param remaining units left after this call (never negative)
 * @param resetAfter time until the full limit is available again (for a fixed window, the end of the window)
 * @param retryAfter when refused, time until a call of the same cost can be admitted; {@link Duration#ZERO} when
 *        allowed; {@code null} when it never can (the cost exceeds the limit)
 * @param degraded whether Redis could not decide and the limit's {@link FailureMode} did (this instance's local
 *        limiter, or fail-open)
 * @param waitTime when allowed, how long the call waits for the later slot Redis reserved for it (its limits'
 *        {@code maxWait}) before it proceeds; {@link Duration#ZERO} when it proceeds at once or was refused
 */
public record RateLimitDecision(String limitName, long limit, Duration window, boolean allowed, long remaining,
        Duration resetAfter, Duration retryAfter, boolean degraded, Duration waitTime) {

    /** A decision whose call does not wait. */
    public RateLimitDecision(String limitName, long limit, Duration window, boolean allowed, long remaining,
            Duration resetAfter, Duration retryAfter, boolean degraded) {
        this(limitName, limit, window, allowed, remaining, resetAfter, retryAfter, degraded, Duration.ZERO);
    }

    /** Whether the call was admitted for a later slot, for which it waits ({@link #waitTime()}). */
    public boolean waits() {
        return allowed && !waitTime.isZero();
    }
}
