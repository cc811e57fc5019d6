package io.quarkiverse.ratelimit.runtime.policy;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.TenantBlockedException;

/**
 * The one gate every limited call crosses before any limit is looked at, whatever way it came in: a
 * {@code @RateLimited} method (REST endpoint, CDI bean, REST Client), a {@code @ConcurrencyLimited} method, or any
 * {@code RateLimiter} method that takes units or a slot. A blocked tenant is refused here, before Redis; an exempt one
 * is waved through, unlimited. Its two callers are the funnels of their kind: {@code CallResolver} for rate limits and
 * {@code ConcurrencyLeases} for concurrency limits.
 * <p>
 * Blocked are the tenants of {@code quarkus.rate-limit.blocked-tenants} and those blocked at run time
 * ({@link RunTimeLimits#block}, by tag: a caller address that is a call's tenant can be blocked too). Exempt are the
 * tenants of {@code quarkus.rate-limit.exempt-tenants}.
 */
@Singleton
public class TenantGate {

    private final TenantPlans plans;
    private final RunTimeLimits runTimeLimits;

    TenantGate(TenantPlans plans, RunTimeLimits runTimeLimits) {
        this.plans = plans;
        this.runTimeLimits = runTimeLimits;
    }

    /**
     * Whether the call's limits apply to it: {@code false} for an exempt tenant.
     *
     * @param tenantId the tenant as its source named it; {@code null} when the call counts under a caller address or
     *        the shared anonymous tag
     * @param tenantTag the hash tag of the call's keys
     * @throws TenantBlockedException when the tenant is blocked
     */
    public boolean limits(String tenantId, String tenantTag) {
        if (runTimeLimits.isBlocked(tenantTag) || tenantId != null && plans.isBlocked(tenantId)) {
            throw new TenantBlockedException();
        }
        return tenantId == null || !plans.isExempt(tenantId);
    }
}
