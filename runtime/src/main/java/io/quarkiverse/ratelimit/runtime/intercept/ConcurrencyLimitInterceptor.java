package io.quarkiverse.ratelimit.runtime.intercept;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.runtime.admitted.GuardedCall;
import io.quarkiverse.ratelimit.runtime.concurrency.ConcurrencyLeases;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredConcurrencyLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.TenantRule;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;

/**
 * Holds a lease for the whole call of a {@link ConcurrencyLimited} method: taken before it runs, given back when it
 * ends (success, failure or cancellation), in the shape both interceptors share ({@link GuardedCall}). Inside
 * {@code @RateLimited}'s interceptor, so a rate-limited call never
 * takes a slot.
 */
@ConcurrencyLimited(limit = 1)
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 60)
public class ConcurrencyLimitInterceptor {

    private final DeclaredConcurrencyLimits methods;
    private final ConcurrencyLeases leases;
    private final RequestTenantResolver tenants;
    private final TenantRule tenantRule;

    ConcurrencyLimitInterceptor(DeclaredConcurrencyLimits methods, ConcurrencyLeases leases, RequestTenantResolver tenants,
            EffectiveLimits configured) {
        this.methods = methods;
        this.leases = leases;
        this.tenants = tenants;
        this.tenantRule = configured.defaultTenantRule();
    }

    @AroundInvoke
    Object limit(InvocationContext invocation) throws Exception {
        ConcurrencyDefinition limit = methods.forMethod(invocation.getMethod());
        return GuardedCall.proceed(invocation, limit.getReturnKind(),
                () -> DirectUni.chained(tenants.resolve(tenantRule, tenants.currentRequest(), null, null),
                        tenant -> leases.acquire(tenant, limit)),
                "@ConcurrencyLimited");
    }
}
