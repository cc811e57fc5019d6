package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeLimits;
import io.quarkiverse.ratelimit.runtime.policy.TenantGate;
import io.quarkiverse.ratelimit.runtime.policy.TenantPlans;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.tenant.ClientAddresses;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.quarkiverse.ratelimit.runtime.tenant.ResolvedTenant;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Turns a limited call into a {@link ResolvedCall}, once, for every way in (the REST filter, the interceptor, early
 * refusals, the {@code RateLimiter}): its tenant crosses the gate ({@link TenantGate}: a blocked one fails, an exempt
 * one is {@link ResolvedCall#UNLIMITED}), gets its plan and run-time limits, its keys (as the admin API names them
 * too) and each limit's mode. Nothing here reads or writes Redis.
 */
@Singleton
public class CallResolver {

    private static final Uni<ResolvedCall> UNLIMITED = DirectUni.item(ResolvedCall.UNLIMITED);

    private final RequestTenantResolver tenants;
    private final ClientAddresses clientAddresses;
    private final TenantGate gate;
    private final TenantPlans plans;
    private final RateLimitKeys keys;
    private final RunTimeLimits runTimeLimits;
    private final LimitModes modes;

    CallResolver(RequestTenantResolver tenants, ClientAddresses clientAddresses, TenantGate gate, TenantPlans plans,
            RateLimitKeys keys, RunTimeLimits runTimeLimits, LimitModes modes) {
        this.tenants = tenants;
        this.clientAddresses = clientAddresses;
        this.gate = gate;
        this.plans = plans;
        this.keys = keys;
        this.runTimeLimits = runTimeLimits;
        this.modes = modes;
    }

    /**
     * A call of an annotated method. A blocked tenant ({@code TenantBlockedException}) or a missing required one
     * ({@code TenantRequiredException}) is the {@code Uni}'s failure.
     *
     * @param request the HTTP request of the call, {@code null} when the call is not part of one
     * @param arguments the call's arguments (tenant and key parameters), {@code null} when there are none
     */
    public Uni<ResolvedCall> resolve(EffectiveMethod method, RoutingContext request, Object[] arguments) {
        if (method.tenantRule() == null) {
            return DirectUni.computed(() -> withKeys(request, method.limits(), null, arguments));
        }
        Uni<ResolvedTenant> tenant = tenants.resolve(method.tenantRule(), request, arguments,
                method.limits().getParameters());
        // mapped, not chained, where no plan is looked up: a tenant that comes at once (a header) is then resolved in
        // place when the call's decision is subscribed, with no step in between
        return method.dependsOnPlan() ? DirectUni.chained(tenant, found -> withPlan(method, request, found, arguments))
                : DirectUni.mapped(tenant, found -> withoutPlan(method, request, found, arguments));
    }

    /**
     * A call of the programmatic API: {@code limits} for the tenant its caller named, without plans (the caller gave
     * the limits).
     *
     * @throws io.quarkiverse.ratelimit.TenantBlockedException when the tenant is blocked
     */
    public ResolvedCall resolve(String tenant, MethodLimits limits) {
        String tag = TenantTags.forTenant(tenant);
        if (!gate.limits(tenant, tag)) {
            return ResolvedCall.UNLIMITED;
        }
        MethodLimits applied = runTimeLimits.apply(limits, tag);
        return byMode(null, tenant, applied, keys.keys(tag, applied.getLimits()));
    }

    /** An annotated method's call with its tenant found, its limits not by plan: the gate, then run-time limits. */
    private ResolvedCall withoutPlan(EffectiveMethod method, RoutingContext request, ResolvedTenant tenant,
            Object[] arguments) {
        if (!gate.limits(tenant.id(), tenant.tag())) {
            return ResolvedCall.UNLIMITED;
        }
        MethodLimits limits = tenant.id() == null ? method.limits()
                : runTimeLimits.apply(method.limits(), tenant.tag());
        return withKeys(request, limits, tenant, arguments);
    }

    /** As {@link #withoutPlan}, the limits of the tenant's plan, which may have to be looked up. */
    private Uni<ResolvedCall> withPlan(EffectiveMethod method, RoutingContext request, ResolvedTenant tenant,
            Object[] arguments) {
        if (!gate.limits(tenant.id(), tenant.tag())) {
            return UNLIMITED;
        }
        if (tenant.id() == null) {
            return DirectUni.item(withKeys(request, method.limits(), tenant, arguments));
        }
        return DirectUni.mapped(plans.plan(tenant.id(), request),
                plan -> withKeys(request, runTimeLimits.apply(method.limits(plan), tenant.tag()), tenant, arguments));
    }

    private ResolvedCall withKeys(RoutingContext request, MethodLimits limits, ResolvedTenant tenant,
            Object[] arguments) {
        List<String> limitKeys = keys.keys(limits, tenant == null ? null : tenant.tag(),
                limits.needsClientAddress() ? clientAddresses.tag(request) : null, arguments);
        return byMode(request, tenant == null ? null : tenant.id(), limits, limitKeys);
    }

    /**
     * The call with each limit's mode for its tenant: {@code off} ones left out, {@code shadow} ones decided with the
     * others but unable to refuse it.
     */
    private ResolvedCall byMode(RoutingContext request, String tenant, MethodLimits method, List<String> limitKeys) {
        if (modes.everyLimitEnforced()) {
            return ResolvedCall.enforced(request, tenant, method, limitKeys);
        }
        List<LimitDefinition> all = method.getLimits();
        List<LimitDefinition> decided = new ArrayList<>(all.size());
        List<String> decidedKeys = new ArrayList<>(all.size());
        int[] decidedAt = new int[all.size()];
        ShadowMask shadow = ShadowMask.NONE;
        for (int i = 0; i < all.size(); i++) {
            Mode mode = modes.mode(all.get(i), tenant);
            decidedAt[i] = mode == Mode.OFF ? -1 : decided.size();
            if (mode == Mode.OFF) {
                continue;
            }
            if (mode == Mode.SHADOW) {
                shadow = shadow.with(decided.size());
            }
            decided.add(all.get(i));
            decidedKeys.add(limitKeys.get(i));
        }
        if (decided.isEmpty()) {
            return ResolvedCall.UNLIMITED;
        }
        if (decided.size() == all.size() && shadow.isEmpty()) {
            return ResolvedCall.enforced(request, tenant, method, limitKeys);
        }
        return new ResolvedCall(request, tenant, method, decided, decidedKeys, shadow, decidedAt,
                modes.shadowHeaders());
    }
}
