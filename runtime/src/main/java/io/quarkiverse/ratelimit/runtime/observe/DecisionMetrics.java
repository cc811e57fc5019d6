package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;

/** Counts every decision ({@link RateLimitMetrics}: Micrometer, or nothing without it). */
@Singleton
public class DecisionMetrics implements DecisionObserver {

    private final RateLimitMetrics metrics;

    DecisionMetrics(RateLimitMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void decided(DecidedCall call) {
        if (call.byLimit() == null) {
            metrics.decided(call.decisions(), call.by(), call.shadow(), call.tenant());
        } else {
            for (int i = 0; i < call.decisions().size(); i++) {
                metrics.decided(call.decisions().get(i), call.by(i), call.shadow().contains(i), call.tenant());
            }
        }
        if (call.by() == DecidedBy.REDIS && WaitingCalls.maxWaitMillis(call.limits()) > 0) {
            metrics.waitDecided(call.decisions());
        }
    }

    @Override
    public void unavailable(List<LimitDefinition> limits, String tenant, Object span) {
        metrics.unavailable(limits, tenant);
    }
}
