package io.quarkiverse.ratelimit;

import java.time.Duration;

/**
 * One of a tenant's limits as its calls are decided now ({@link RateLimiter#usage}), read without counting.
 *
 * @param name the limit's name (the {@code RateLimit-Policy} item name)
 * @param limit units allowed per window, as the tenant's plan and run-time limit make it
 * @param window the window length
 * @param remaining units left now
 * @param resetAfter time until the full limit is available again
 * @param inDebt whether the tenant has used more than the limit (a settled overrun, a limit lowered below what it
 *        used): even a call of no cost is refused until that is paid back
 * @param mode how the limit applies to the tenant's calls: {@link Mode#ENFORCE}, or {@link Mode#SHADOW} (counted, never
 *        refusing); a limit switched off for the tenant is not listed
 */
public record RateLimitUsage(String name, long limit, Duration window, long remaining, Duration resetAfter,
        boolean inDebt, Mode mode) {
}
