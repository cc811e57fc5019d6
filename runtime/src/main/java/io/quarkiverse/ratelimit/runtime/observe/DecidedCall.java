package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;

/**
 * The decisions of one call's limits, as observers see them ({@link DecisionObserver}).
 *
 * @param keys each limit's key
 * @param limits the limits decided, in order
 * @param decisions each limit's decision
 * @param by what decided the call: Redis, the refusal cache, or a failure mode
 * @param byLimit what decided each limit, when they differ (failure modes: one limit by the local fallback, another
 *        failing open); {@code null} when {@code by} decided them all
 * @param shadow the limits in shadow mode
 * @param tenant the tenant's id, {@code null} when the limits have none
 * @param span the call's trace span ({@link DecisionTracing#currentSpan()}), {@code null} when there is none
 */
public record DecidedCall(List<String> keys, List<LimitDefinition> limits, List<RateLimitDecision> decisions,
        DecidedBy by, List<DecidedBy> byLimit, ShadowMask shadow, String tenant, Object span) {

    /** What decided the limit at {@code position}. */
    public DecidedBy by(int position) {
        return byLimit == null ? by : byLimit.get(position);
    }
}
