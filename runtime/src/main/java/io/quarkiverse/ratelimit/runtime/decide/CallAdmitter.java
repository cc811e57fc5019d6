package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.admitted.Admissions;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkiverse.ratelimit.runtime.outgoing.AdaptiveLimits;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.resilience.GuardedDecisions;
import io.smallrye.mutiny.Uni;

/**
 * Decides a {@link ResolvedCall}, whichever way it came in: its limits on the counts, guarded
 * ({@link GuardedDecisions}), an adaptive one at what its key learned, and the call admitted or refused as a value
 * ({@link CallDecision}), after the wait for its slot when Redis reserved a later one ({@link SlotWaits}). It writes no
 * response: each entry point answers the decision in its own way.
 */
@Singleton
public class CallAdmitter {

    private static final Uni<CallDecision> UNLIMITED = DirectUni.item(CallDecision.UNLIMITED);

    private final GuardedDecisions guard;
    private final SlotWaits waits;
    private final AdaptiveLimits adaptive;
    private final Admissions admissions;
    private final InstanceClock clock;

    CallAdmitter(GuardedDecisions guard, SlotWaits waits, AdaptiveLimits adaptive, Admissions admissions,
            InstanceClock clock) {
        this.clock = clock;
        this.guard = guard;
        this.waits = waits;
        this.adaptive = adaptive;
        this.admissions = admissions;
    }

    /**
     * The call's decision: at once when it proceeds at once or is refused, after its wait when Redis reserved a
     * later slot for it. An adaptive limit is decided with what its key learned by then, a call decided again (late,
     * or woken by a pause) too.
     */
    public Uni<CallDecision> decide(ResolvedCall call) {
        if (call.isUnlimited()) {
            return UNLIMITED;
        }
        List<LimitDefinition> limits = limitsNow(call);
        if (WaitingCalls.maxWaitMillis(limits) == 0) {
            return decided(call, limits);
        }
        return waits.waited(() -> decided(call, limits), call.keys(), limits,
                left -> decided(call, WaitingCalls.waitingAtMost(limitsNow(call), left)));
    }

    /**
     * The refusal this instance holds for the call, as {@link #decide} would answer it from the refusal cache (counted
     * and traced the same way); {@code null} when it holds none and Redis would have to decide. Sends nothing to Redis
     * and records nothing, so a call it does not refuse is decided afterwards as if it had not been asked.
     */
    public CallDecision heldRefusal(ResolvedCall call) {
        if (call.isUnlimited()) {
            return null;
        }
        List<RateLimitDecision> held = guard.heldRefusal(call.keys(), limitsNow(call), call.tenant(), call.shadow());
        return held == null ? null : decision(call, held);
    }

    /** The call's limits as they stand now: an adaptive one at what its key has learned. */
    private List<LimitDefinition> limitsNow(ResolvedCall call) {
        return call.method().hasAdaptiveLimits() ? adaptive.apply(call.limits(), call.keys()) : call.limits();
    }

    private Uni<CallDecision> decided(ResolvedCall call, List<LimitDefinition> limits) {
        return DirectUni.mapped(guard.acquire(call.keys(), limits, call.tenant(), call.shadow()),
                decisions -> decision(call, decisions));
    }

    /** The call admitted only if every enforced limit allowed it. */
    private CallDecision decision(ResolvedCall call, List<RateLimitDecision> decisions) {
        if (call.byMode()) {
            return decisionByMode(call, decisions);
        }
        boolean degraded = false;
        for (RateLimitDecision decision : decisions) {
            if (!decision.allowed()) {
                return CallDecision.refused(decisions);
            }
            degraded |= decision.degraded();
        }
        return CallDecision.admitted(admissions.of(call.method(), call.request(), call.keys(), call.limits(), degraded,
                CallDecision.waitMillis(decisions)), decisions, clock);
    }

    /**
     * A call some limits of which are off or in shadow mode: a shadow limit's refusal refuses nothing (observers log
     * and count it), and the client sees the shadow limits' decisions only when configured to.
     */
    private CallDecision decisionByMode(ResolvedCall call, List<RateLimitDecision> decisions) {
        ShadowMask shadowed = call.shadow();
        List<RateLimitDecision> enforced = shadowed.enforcedOnly(decisions);
        List<RateLimitDecision> shown = call.showsShadow() ? decisions : enforced;
        List<RateLimitDecision> perLimit = perLimit(call, decisions);
        boolean degraded = false;
        List<LimitDefinition> recorded = new ArrayList<>(decisions.size());
        List<String> recordedKeys = new ArrayList<>(decisions.size());
        for (int i = 0; i < decisions.size(); i++) {
            RateLimitDecision decision = decisions.get(i);
            if (!decision.allowed()) {
                if (!shadowed.contains(i)) {
                    return CallDecision.refused(shown, enforced, perLimit);
                }
                continue; // recorded nothing: nothing to refund (ShadowRefusals logs it)
            }
            degraded |= decision.degraded();
            recorded.add(call.limits().get(i));
            recordedKeys.add(call.keys().get(i));
        }
        return CallDecision.admitted(admissions.of(call.method(), call.request(), recordedKeys, recorded, degraded,
                CallDecision.waitMillis(decisions)), decisions, shown, perLimit, clock);
    }

    /** Every limit's decision as the call sees it ({@link CallDecision#perLimit}). */
    private static List<RateLimitDecision> perLimit(ResolvedCall call, List<RateLimitDecision> decisions) {
        List<LimitDefinition> all = call.method().getLimits();
        List<RateLimitDecision> perLimit = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            int at = call.decidedAt()[i];
            RateLimitDecision decision = at < 0 ? CallDecision.unlimited(all.get(i)) : decisions.get(at);
            perLimit.add(at >= 0 && !decision.allowed() && call.shadow().contains(at) ? CallDecision.shadowed(decision)
                    : decision);
        }
        return perLimit;
    }
}
