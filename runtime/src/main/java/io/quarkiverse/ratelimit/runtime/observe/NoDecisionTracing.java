package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/** The tracing of an application without an OpenTelemetry tracer: none. */
@Singleton
public class NoDecisionTracing implements DecisionTracing {

    @Override
    public Object currentSpan() {
        return null;
    }

    @Override
    public void decided(Object span, List<RateLimitDecision> decisions, DecidedBy by) {
    }

    @Override
    public void unavailable(Object span, List<LimitDefinition> limits) {
    }
}
