package io.quarkiverse.ratelimit.runtime.resilience;

import java.util.List;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.smallrye.mutiny.Uni;

/**
 * The decisions of one call's limits, guarded: what deciding a call needs of the counts ({@link DecisionGuard} in an
 * application; the decision core's unit tests decide on counts kept in memory).
 */
public interface GuardedDecisions {

    /**
     * One decision per limit, in order; the call is admitted only if every limit not in {@code shadow} allows it.
     *
     * @param tenant the tenant's id, for the observers; {@code null} when the limits have none
     */
    Uni<List<RateLimitDecision>> acquire(List<String> keys, List<LimitDefinition> limits, String tenant,
            ShadowMask shadow);

    /**
     * The refusal this instance holds for the call; {@code null} when it holds none and the counts would have to
     * decide. Sends nothing anywhere.
     */
    List<RateLimitDecision> heldRefusal(List<String> keys, List<LimitDefinition> limits, String tenant,
            ShadowMask shadow);
}
