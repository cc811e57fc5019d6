package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/** Notes every decision on the call's span ({@link DecisionTracing}: OpenTelemetry, or nothing without it). */
@Singleton
public class DecisionTraces implements DecisionObserver {

    private final DecisionTracing tracing;

    DecisionTraces(DecisionTracing tracing) {
        this.tracing = tracing;
    }

    @Override
    public void decided(DecidedCall call) {
        tracing.decided(call.span(), call.decisions(), call.by());
    }

    @Override
    public void unavailable(List<LimitDefinition> limits, String tenant, Object span) {
        tracing.unavailable(span, limits);
    }
}
