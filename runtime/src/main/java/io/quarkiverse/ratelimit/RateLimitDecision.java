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
 */
public record RateLimitDecision(String limitName, long limit, Duration window, boolean allowed, long remaining,
        Duration resetAfter, Duration retryAfter, boolean degraded) {
}
