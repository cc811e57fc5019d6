package io.quarkiverse.ratelimit;

/**
 * A call from a blocked tenant ({@code quarkus.rate-limit.blocked-tenants}, {@link RateLimitAdmin#block}), whichever
 * way it came in: a {@link RateLimited} or {@link ConcurrencyLimited} method, or a {@link RateLimiter} method that takes
 * units or a slot. Quarkus REST answers {@code 403 Forbidden}; the tenant itself is not echoed back.
 */
public class TenantBlockedException extends RuntimeException {

    public TenantBlockedException() {
        super("This tenant is blocked", null, false, false);
    }
}
