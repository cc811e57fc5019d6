package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * Watches the decisions of every limited call, whatever decided them (Redis, the refusal cache, a failure mode):
 * metrics, traces, threshold events and shadow-mode logging are observers, and a new feature that watches decisions is
 * a new one, a bean of this type ({@link DecisionObservers} tells them all). Observers run on the decision's path: they
 * must not block, and what they send anywhere, they send after the call was answered.
 */
public interface DecisionObserver {

    /** A call's limits decided. */
    void decided(DecidedCall call);

    /** A call refused because a fail-closed limit could not be decided (503): every limit of it counts as refused. */
    default void unavailable(List<LimitDefinition> limits, String tenant, Object span) {
    }
}
