package io.quarkiverse.ratelimit.runtime.decide;

import java.util.List;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.vertx.ext.web.RoutingContext;

/**
 * One call turned into what deciding it needs, the same for every way in ({@link CallResolver}): its tenant after the
 * gate, its limits after the tenant's plan and the run-time limits, their keys, and each limit's mode ({@code off}
 * limits left out, {@code shadow} ones marked). Deciding it ({@link CallAdmitter}) reads nothing else of the call.
 *
 * @param request the HTTP request of the call (a 5xx answer may refund it), {@code null} when it is not part of one
 * @param tenant the tenant's id, {@code null} when the call has none
 * @param method the call's limits as applied to its tenant: what it refunds, settles, and whether it goes upstream
 * @param limits the limits to decide, in order: {@code method}'s without those switched off
 * @param keys each decided limit's key
 * @param shadow the decided limits in shadow mode
 * @param decidedAt for each of {@code method}'s limits, its position among the decided ones ({@code -1}: switched off);
 *        {@code null} when every limit is decided and enforced
 * @param showsShadow whether the client is shown the decisions of shadow limits ({@code modes.shadow-headers})
 */
public record ResolvedCall(RoutingContext request, String tenant, MethodLimits method, List<LimitDefinition> limits,
        List<String> keys, ShadowMask shadow, int[] decidedAt, boolean showsShadow) {

    /** A call no limit looks at: an exempt tenant, or every limit switched off. */
    public static final ResolvedCall UNLIMITED = new ResolvedCall(null, null, null, List.of(), List.of(),
            ShadowMask.NONE, null, false);

    /** A call whose every limit is decided and enforced: the decisions are the call's, as Redis gives them. */
    static ResolvedCall enforced(RoutingContext request, String tenant, MethodLimits method, List<String> keys) {
        return new ResolvedCall(request, tenant, method, method.getLimits(), keys, ShadowMask.NONE, null, false);
    }

    public boolean isUnlimited() {
        return limits.isEmpty();
    }

    /** Whether some limit of the call is switched off or in shadow mode for its tenant. */
    boolean byMode() {
        return decidedAt != null;
    }
}
