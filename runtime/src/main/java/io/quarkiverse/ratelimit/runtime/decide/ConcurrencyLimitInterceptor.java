package io.quarkiverse.ratelimit.runtime.decide;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.runtime.decide.ConcurrencyLeases.Lease;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.policy.TenantRule;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * Holds a lease for the whole call of a {@link ConcurrencyLimited} method: taken before it runs, given back when it
 * ends (success, failure or cancellation). Inside {@code @RateLimited}'s interceptor, so a rate-limited call never
 * takes a slot.
 */
@ConcurrencyLimited(limit = 1)
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 60)
public class ConcurrencyLimitInterceptor {

    private final DeclaredLimits methods;
    private final ConcurrencyLeases limiter;
    private final RequestTenantResolver tenants;
    private final TenantRule tenantRule;

    ConcurrencyLimitInterceptor(DeclaredLimits methods, ConcurrencyLeases limiter, RequestTenantResolver tenants,
            EffectiveLimits configured) {
        this.methods = methods;
        this.limiter = limiter;
        this.tenants = tenants;
        this.tenantRule = configured.defaultTenantRule();
    }

    @AroundInvoke
    Object limit(InvocationContext invocation) throws Exception {
        ConcurrencyDefinition limit = methods.concurrencyFor(invocation.getMethod());
        Uni<Lease> lease = tenants.resolve(tenantRule, tenants.currentRequest(), null, null)
                .flatMap(tenant -> limiter.acquire(tenant.tag(), limit));
        if (!Context.isOnEventLoopThread()) {
            Lease held = lease.await().indefinitely();
            try {
                return invocation.proceed();
            } finally {
                held.release().await().indefinitely();
            }
        }
        lease = lease.emitOn(CallerContext.current());
        return switch (limit.getReturnKind()) {
            case UNI -> lease.chain(held -> RateLimitInterceptor.<Uni<Object>> proceed(invocation,
                    failure -> Uni.createFrom().failure(failure)).onTermination().call(held::release));
            case MULTI -> lease.onItem().transformToMulti(held -> RateLimitInterceptor.<Multi<Object>> proceed(
                    invocation, failure -> Multi.createFrom().failure(failure)).onTermination().call(held::release));
            case COMPLETION_STAGE -> lease.chain(held -> Uni.createFrom()
                    .completionStage(RateLimitInterceptor.<CompletionStage<Object>> proceed(invocation,
                            CompletableFuture::failedFuture))
                    .onTermination().call(held::release))
                    .subscribeAsCompletionStage();
            case SYNCHRONOUS -> throw new IllegalStateException("@ConcurrencyLimited method " + invocation.getMethod()
                    + " returns a plain value but was called on the Vert.x event loop: return Uni, Multi or"
                    + " CompletionStage, or let it run on a worker thread");
        };
    }
}
