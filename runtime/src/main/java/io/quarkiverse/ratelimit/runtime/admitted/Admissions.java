package io.quarkiverse.ratelimit.runtime.admitted;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkiverse.ratelimit.runtime.outgoing.UpstreamAnswers;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
import io.vertx.ext.web.RoutingContext;

/**
 * Makes an admitted call's {@link Admission}: what it can give back, settle, or tell an upstream's answer to. Most calls
 * need none ({@link Admission#NONE}): no refund, no settlement, no later slot, or decided without Redis.
 */
@Singleton
public class Admissions {

    private final DecisionGuard guard;
    private final UpstreamAnswers upstream;
    private final CallCosts costs;
    private final InstanceClock clock;

    Admissions(DecisionGuard guard, UpstreamAnswers upstream, CallCosts costs, InstanceClock clock) {
        this.clock = clock;
        this.guard = guard;
        this.upstream = upstream;
        this.costs = costs;
    }

    /**
     * @param method the call's limits as applied: what it refunds, settles, and whether it goes upstream
     * @param request the HTTP request of the call (a 5xx answer refunds it), {@code null} when it is not part of one
     * @param keys the keys of the limits the call recorded
     * @param limits the limits the call recorded, as configured (an adaptive limit's learned value is what it grows
     *        back from)
     * @param degraded whether a limit was decided without Redis (then nothing is given back)
     * @param waitMillis the wait for a later slot, which a call given up meanwhile gives back
     */
    public Admission of(MethodLimits method, RoutingContext request, List<String> keys, List<LimitDefinition> limits,
            boolean degraded, long waitMillis) {
        if (degraded || !method.refunds() && !method.isOutgoing() && waitMillis == 0 || limits.isEmpty()) {
            return Admission.NONE;
        }
        boolean outgoing = method.isOutgoing();
        // an adaptive limit's rate when Redis decided the call is the one it went at: read only for outgoing calls
        Admission admission = new Admission(guard, keys, limits, outgoing ? upstream : null,
                method.costsFromResults() ? costs : null, method.getReturnKind() == ReturnKind.MULTI,
                outgoing ? clock.currentTimeMillis() : 0);
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
