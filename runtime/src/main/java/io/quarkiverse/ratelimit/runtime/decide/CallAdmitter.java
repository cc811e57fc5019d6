package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkiverse.ratelimit.runtime.policy.AdaptiveLimits;
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
 * Decides one limited call, whichever way it came in: a {@code @RateLimited} method (from the REST request filter or
 * the interceptor) or a {@code RateLimiter} method. The tenant crosses the gate ({@link TenantGate}: blocked tenants
 * refused before Redis, exempt ones waved through), gets its plan and run-time limits, then every limit is decided by
 * its mode on Redis and the call is admitted or refused ({@link CallDecision}), after the wait for its slot when Redis
 * reserved a later one. It writes no response: each entry point answers the decision in its own way.
 */
@Singleton
public class CallAdmitter {

    private final RequestTenantResolver tenants;
    private final ClientAddresses clientAddresses;
    private final TenantGate gate;
    private final TenantPlans plans;
    private final DecisionGuard guard;
    private final RateLimitKeys keys;
    private final RunTimeLimits runTimeLimits;
    private final LimitModes modes;
    private final SlotWaits waits;
    private final AdaptiveLimits adaptive;
    private final UpstreamAnswers upstream;
    private final CallCosts costs;
    private final ShadowRefusals shadowRefusals = new ShadowRefusals();
    /** Whether calls are answered only from the refusals this instance holds ({@link #heldRefusalsOnly()}). */
    private final boolean heldRefusalsOnly;

    @Inject
    CallAdmitter(RequestTenantResolver tenants, ClientAddresses clientAddresses, TenantGate gate, TenantPlans plans,
            DecisionGuard guard, RateLimitKeys keys, RunTimeLimits runTimeLimits, LimitModes modes, SlotWaits waits,
            AdaptiveLimits adaptive, UpstreamAnswers upstream, CallCosts costs) {
        this.costs = costs;
        this.waits = waits;
        this.adaptive = adaptive;
        this.upstream = upstream;
        this.modes = modes;
        this.runTimeLimits = runTimeLimits;
        this.tenants = tenants;
        this.clientAddresses = clientAddresses;
        this.gate = gate;
        this.plans = plans;
        this.guard = guard;
        this.keys = keys;
        this.heldRefusalsOnly = false;
    }

    private CallAdmitter(CallAdmitter calls) {
        this.costs = calls.costs;
        this.waits = calls.waits;
        this.adaptive = calls.adaptive;
        this.upstream = calls.upstream;
        this.modes = calls.modes;
        this.runTimeLimits = calls.runTimeLimits;
        this.tenants = calls.tenants;
        this.clientAddresses = calls.clientAddresses;
        this.gate = calls.gate;
        this.plans = calls.plans;
        this.guard = calls.guard;
        this.keys = calls.keys;
        this.heldRefusalsOnly = true;
    }

    /**
     * The same path to a call's limits (its tenant, the gate, plans, run-time limits, keys and modes) ending in the
     * refusals this instance holds instead of Redis: a call is refused as {@link #decide} would refuse it from the
     * refusal cache, and fails with {@link DecisionGuard#NOT_HELD} when Redis would have to decide it. It sends nothing
     * to Redis and records nothing, so a call it does not refuse is decided afterwards as if it had not run.
     */
    public CallAdmitter heldRefusalsOnly() {
        return new CallAdmitter(this);
    }

    /**
     * Decides a call of an annotated method and answers it with {@code answer}, which runs in the decision's own step
     * (a {@code map} after it would capture the caller's context) and may throw: the returned {@code Uni}'s failure. A
     * blocked tenant or a missing required one fails the {@code Uni}; an admitted call's {@link Admission} can refund
     * it.
     *
     * @param request the HTTP request of the call, {@code null} when the call is not part of one
     * @param arguments the call's arguments (tenant and key parameters), {@code null} when there are none
     */
    public <R> Uni<R> decide(EffectiveMethod method, RoutingContext request, Object[] arguments,
            Function<CallDecision, R> answer) {
        if (method.tenantRule() == null) {
            return decideWithKeys(request, method.limits(), null, arguments, answer);
        }
        return tenants.resolve(method.tenantRule(), request, arguments, method.limits().getParameters(),
                tenant -> decideForTenant(method, request, tenant, arguments, answer));
    }

    /**
     * Decides a call of the programmatic API: {@code limits} for the tenant its caller named, on the same path as an
     * annotated method's call (gate, run-time limits, modes, waits), without plans: the caller gave the limits. Lazy:
     * the gate is crossed when the {@code Uni} is subscribed.
     */
    public <R> Uni<R> decide(String tenant, MethodLimits limits, Function<CallDecision, R> answer) {
        return DirectUni.deferred(() -> {
            String tag = TenantTags.forTenant(tenant);
            if (!gate.limits(tenant, tag)) {
                return DirectUni.computed(() -> answer.apply(CallDecision.UNLIMITED));
            }
            MethodLimits applied = runTimeLimits.apply(limits, tag);
            return decideOnKeys(null, applied, keys.keys(tag, applied.getLimits()), tenant, answer);
        });
    }

    /** An annotated method's call with its tenant found: the gate, then the tenant's plan and run-time limits. */
    private <R> Uni<R> decideForTenant(EffectiveMethod method, RoutingContext request, ResolvedTenant tenant,
            Object[] arguments, Function<CallDecision, R> answer) {
        if (!gate.limits(tenant.id(), tenant.tag())) {
            return DirectUni.computed(() -> answer.apply(CallDecision.UNLIMITED));
        }
        if (tenant.id() == null) {
            return decideWithKeys(request, method.limits(), tenant, arguments, answer);
        }
        if (!method.dependsOnPlan()) {
            return decideWithKeys(request, runTimeLimits.apply(method.limits(), tenant.tag()), tenant, arguments,
                    answer);
        }
        return plans.plan(tenant.id(), request).flatMap(plan -> decideWithKeys(request,
                runTimeLimits.apply(method.limits(plan), tenant.tag()), tenant, arguments, answer));
    }

    /** An annotated method's call with its limits known: their keys, as the admin API names them too. */
    private <R> Uni<R> decideWithKeys(RoutingContext request, MethodLimits limits, ResolvedTenant tenant,
            Object[] arguments, Function<CallDecision, R> answer) {
        List<String> limitKeys = keys.keys(limits, tenant == null ? null : tenant.tag(),
                limits.needsClientAddress() ? clientAddresses.tag(request) : null, arguments);
        return decideOnKeys(request, limits, limitKeys, tenant == null ? null : tenant.id(), answer);
    }

    /** The limits' decisions on their keys, each limit by its mode: every call's common path. */
    private <R> Uni<R> decideOnKeys(RoutingContext request, MethodLimits limits, List<String> limitKeys, String tenantId,
            Function<CallDecision, R> answer) {
        if (!modes.everyLimitEnforced()) {
            return decideByMode(request, limits, limitKeys, tenantId, answer);
        }
        return answered(limitKeys, limits.getLimits(), limits.hasAdaptiveLimits(), tenantId, ShadowMask.NONE,
                decisions -> {
                    boolean degraded = false;
                    for (RateLimitDecision decision : decisions) {
                        if (!decision.allowed()) {
                            return CallDecision.refused(decisions);
                        }
                        degraded |= decision.degraded();
                    }
                    return CallDecision.admitted(admission(request, limitKeys, limits.getLimits(), limits, degraded,
                            CallDecision.waitMillis(decisions)), decisions);
                }, answer);
    }

    /**
     * The limits' decisions, made a {@link CallDecision} by {@code decision} and answered by {@code answer}: in the
     * decision's own step, or, for limits a call may wait for, after the wait for the slot Redis reserved
     * ({@link SlotWaits}). An adaptive limit is decided with what its key learned by then, a call decided again (late,
     * or woken by a pause) too.
     *
     * @param configured the limits as configured; the call's admission keeps them
     */
    private <R> Uni<R> answered(List<String> limitKeys, List<LimitDefinition> configured, boolean adaptive,
            String tenant, ShadowMask shadow, Function<List<RateLimitDecision>, CallDecision> decision,
            Function<CallDecision, R> answer) {
        List<LimitDefinition> limits = adaptive ? this.adaptive.apply(configured, limitKeys) : configured;
        long maxWait = WaitingCalls.maxWaitMillis(limits);
        if (heldRefusalsOnly) {
            return guard.heldRefusal(limitKeys, limits, tenant, shadow,
                    decisions -> answer.apply(decision.apply(decisions)));
        }
        if (maxWait == 0) {
            return guard.acquire(limitKeys, limits, tenant, shadow, decisions -> answer.apply(decision.apply(decisions)));
        }
        return waits.answered(guard.acquire(limitKeys, limits, tenant, shadow, decision), limitKeys, limits,
                CallDecision::slotNanos, answer, given -> given.admission().giveBack().subscribe().with(done -> {
                }), (waited, paused) -> waited.admitted() ? waited.revoked(paused) : waited,
                left -> guard.acquire(limitKeys, WaitingCalls.waitingAtMost(
                        adaptive ? this.adaptive.apply(configured, limitKeys) : limits, left), tenant, shadow,
                        decision));
    }

    /**
     * The call's limits by their mode for this tenant: {@code off} ones are left out, {@code shadow} ones decided
     * with the others but unable to refuse the call; their refusals are logged and counted.
     */
    private <R> Uni<R> decideByMode(RoutingContext request, MethodLimits limits, List<String> limitKeys,
            String tenant, Function<CallDecision, R> answer) {
        List<LimitDefinition> all = limits.getLimits();
        List<LimitDefinition> decided = new ArrayList<>(all.size());
        List<String> decidedKeys = new ArrayList<>(all.size());
        /* the position among the decided limits of each limit, -1 for one switched off */
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
            return DirectUni.computed(() -> answer.apply(CallDecision.UNLIMITED));
        }
        ShadowMask shadowed = shadow;
        return answered(decidedKeys, decided, limits.hasAdaptiveLimits(), tenant, shadowed, decisions -> {
            List<RateLimitDecision> enforced = shadowed.enforcedOnly(decisions);
            List<RateLimitDecision> shown = modes.shadowHeaders() ? decisions : enforced;
            List<RateLimitDecision> perLimit = perLimit(all, decidedAt, decisions, shadowed);
            boolean degraded = false;
            List<LimitDefinition> recorded = new ArrayList<>(decided.size());
            List<String> recordedKeys = new ArrayList<>(decided.size());
            for (int i = 0; i < decisions.size(); i++) {
                RateLimitDecision decision = decisions.get(i);
                if (!decision.allowed()) {
                    if (!shadowed.contains(i)) {
                        return CallDecision.refused(shown, enforced, perLimit);
                    }
                    shadowRefusals.refused(decision, tenant);
                    continue; // recorded nothing: nothing to refund
                }
                degraded |= decision.degraded();
                recorded.add(decided.get(i));
                recordedKeys.add(decidedKeys.get(i));
            }
            return CallDecision.admitted(admission(request, recordedKeys, recorded, limits, degraded,
                    CallDecision.waitMillis(decisions)), decisions, shown, perLimit);
        }, answer);
    }

    /** Every limit's decision as the call sees it ({@link CallDecision#perLimit}). */
    private static List<RateLimitDecision> perLimit(List<LimitDefinition> all, int[] decidedAt,
            List<RateLimitDecision> decisions, ShadowMask shadowed) {
        List<RateLimitDecision> perLimit = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            int at = decidedAt[i];
            RateLimitDecision decision = at < 0 ? CallDecision.unlimited(all.get(i)) : decisions.get(at);
            perLimit.add(at >= 0 && !decision.allowed() && shadowed.contains(at) ? CallDecision.shadowed(decision)
                    : decision);
        }
        return perLimit;
    }

    /**
     * @param method what the call's limits do after it: refund, pause on an upstream's 429 (a REST Client's call)
     * @param waitMillis the wait for a later slot, which a call given up meanwhile gives back
     */
    private Admission admission(RoutingContext request, List<String> keys, List<LimitDefinition> limits,
            MethodLimits method, boolean degraded, long waitMillis) {
        if (degraded || !method.refunds() && !method.isOutgoing() && waitMillis == 0 || limits.isEmpty()) {
            return Admission.NONE;
        }
        Admission admission = new Admission(guard, keys, limits, method.isOutgoing() ? upstream : null,
                method.costsFromResults() ? costs : null, method.getReturnKind() == ReturnKind.MULTI);
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
