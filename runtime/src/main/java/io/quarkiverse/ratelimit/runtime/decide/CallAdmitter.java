package io.quarkiverse.ratelimit.runtime.decide;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.TenantBlockedException;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.http.RateLimitHeaders;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeLimits;
import io.quarkiverse.ratelimit.runtime.policy.TenantPlans;
import io.quarkiverse.ratelimit.runtime.tenant.ClientAddresses;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.quarkiverse.ratelimit.runtime.tenant.ResolvedTenant;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Admits or refuses one call of a rate-limited method: resolves the tenant (refusing blocked tenants, waving exempt
 * ones through) and its plan, takes the decisions on Redis, puts the rate-limit headers on the HTTP response (if there
 * is one) and fails with {@link RateLimitExceededException} when a limit refuses.
 */
@Singleton
public class CallAdmitter {

    private final RequestTenantResolver tenants;
    private final ClientAddresses clientAddresses;
    private final TenantPlans plans;
    private final DecisionGuard guard;
    private final RateLimitKeys keys;
    private final RunTimeLimits runTimeLimits;

    CallAdmitter(RequestTenantResolver tenants, ClientAddresses clientAddresses, TenantPlans plans,
            DecisionGuard guard, RateLimitConfig config, RateLimitKeys keys,
            RunTimeLimits runTimeLimits) {
        this.runTimeLimits = runTimeLimits;
        this.tenants = tenants;
        this.clientAddresses = clientAddresses;
        this.plans = plans;
        this.guard = guard;
        this.keys = keys;
    }

    /**
     * Admits the call, or fails with {@link RateLimitExceededException}; the admission can refund the call.
     *
     * @param arguments the call's arguments (tenant and key parameters), {@code null} when there are none
     */
    public Uni<Admission> admit(EffectiveMethod method, Object[] arguments) {
        RoutingContext request = tenants.currentRequest();
        if (method.tenantRule() == null) {
            return decide(request, method.limits(), null, arguments);
        }
        return tenants.resolve(method.tenantRule(), request, arguments, method.limits().getParameters())
                .flatMap(tenant -> {
                    if (tenant.id() == null) {
                        return decide(request, method.limits(), tenant, arguments);
                    }
                    if (plans.isBlocked(tenant.id()) || runTimeLimits.isBlocked(tenant.tag())) {
                        throw new TenantBlockedException();
                    }
                    if (plans.isExempt(tenant.id())) {
                        return Uni.createFrom().item(Admission.NONE);
                    }
                    if (!method.dependsOnPlan()) {
                        return decide(request, runTimeLimits.apply(method.limits(), tenant.tag()), tenant, arguments);
                    }
                    return plans.plan(tenant.id(), request).flatMap(plan -> decide(request,
                            runTimeLimits.apply(method.limits(plan), tenant.tag()), tenant, arguments));
                });
    }

    private Uni<Admission> decide(RoutingContext request, MethodLimits limits, ResolvedTenant tenant,
            Object[] arguments) {
        List<String> limitKeys = keys.keys(limits, tenant == null ? null : tenant.tag(),
                limits.needsClientAddress() ? clientAddresses.tag(request) : null, arguments);
        return guard.acquire(limitKeys, limits.getLimits(), tenant == null ? null : tenant.id()).map(decisions -> {
            if (request != null) {
                RateLimitHeaders.attach(request, decisions);
            }
            boolean degraded = false;
            for (RateLimitDecision decision : decisions) {
                if (!decision.allowed()) {
                    throw new RateLimitExceededException(decisions);
                }
                degraded |= decision.degraded();
            }
            return admission(request, limitKeys, limits, degraded);
        });
    }

    private Admission admission(RoutingContext request, List<String> keys, MethodLimits limits, boolean degraded) {
        if (degraded || !limits.refunds()) {
            return Admission.NONE;
        }
        Admission admission = new Admission(guard, keys, limits.getLimits());
        if (request != null && admission.refundsOnServerError()) {
            // at the end, when the status is final (at headers-end Quarkus REST may not have set it yet)
            request.addEndHandler(ignored -> {
                if (request.response().getStatusCode() >= 500) {
                    admission.refundServerError().subscribe().with(done -> {
                    });
                }
            });
        }
        return admission;
    }
}
