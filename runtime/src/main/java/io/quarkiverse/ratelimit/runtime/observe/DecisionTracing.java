package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * Adds each decision to the caller's trace. The deployment registers {@link OpenTelemetryDecisionTracing} when the
 * application has quarkus-opentelemetry's tracer, {@link NoDecisionTracing} otherwise.
 */
public interface DecisionTracing {

    /**
     * The current span, taken on the calling thread (a Redis reply completes on another one); {@code null} when there
     * is none to add to.
     */
    Object currentSpan();

    /** The decisions of one call, and what decided them. */
    void decided(Object span, List<RateLimitDecision> decisions, DecidedBy by);

    /** A call refused because a fail-closed limit could not be decided (503). */
    void unavailable(Object span, List<LimitDefinition> limits);
}
