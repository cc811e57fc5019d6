package io.quarkiverse.ratelimit.runtime.observe;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * Adds the decision to the current span (the server span of an HTTP call): the limits, the result, what is left and
 * what decided, as attributes prefixed {@code rate_limit.}; a refused call gets the event {@code rate_limit.rejected}
 * with the status it is answered with (429, or 503 when a fail-closed limit could not be decided).
 */
@Singleton
public class OpenTelemetryDecisionTracing implements DecisionTracing {

    static final AttributeKey<List<String>> LIMITS = AttributeKey.stringArrayKey("rate_limit.limits");
    static final AttributeKey<List<Long>> REMAINING = AttributeKey.longArrayKey("rate_limit.remaining");
    static final AttributeKey<String> RESULT = AttributeKey.stringKey("rate_limit.result");
    static final AttributeKey<String> DECIDED_BY = AttributeKey.stringKey("rate_limit.decided_by");
    static final AttributeKey<String> REFUSING_LIMIT = AttributeKey.stringKey("rate_limit.limit");
    static final AttributeKey<Long> RETRY_AFTER_MS = AttributeKey.longKey("rate_limit.retry_after_ms");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final String REJECTED_EVENT = "rate_limit.rejected";

    @Override
    public Object currentSpan() {
        Span span = Span.current();
        return span.isRecording() ? span : null;
    }

    @Override
    public void decided(Object current, List<RateLimitDecision> decisions, DecidedBy by) {
        if (current == null) {
            return;
        }
        Span span = (Span) current;
        List<String> names = new ArrayList<>(decisions.size());
        List<Long> remaining = new ArrayList<>(decisions.size());
        RateLimitDecision refusing = null;
        for (RateLimitDecision decision : decisions) {
            names.add(decision.limitName());
            remaining.add(decision.remaining());
            if (!decision.allowed() && refusing == null) {
                refusing = decision;
            }
        }
        span.setAttribute(LIMITS, names);
        span.setAttribute(REMAINING, remaining);
        span.setAttribute(RESULT, refusing == null ? "allowed" : "rejected");
        span.setAttribute(DECIDED_BY, by.tag());
        if (refusing != null) {
            span.addEvent(REJECTED_EVENT, Attributes.of(REFUSING_LIMIT, refusing.limitName(), STATUS, 429L,
                    RETRY_AFTER_MS, refusing.retryAfter() == null ? -1L : refusing.retryAfter().toMillis()));
        }
    }

    @Override
    public void unavailable(Object current, List<LimitDefinition> limits) {
        if (current == null) {
            return;
        }
        Span span = (Span) current;
        span.setAttribute(LIMITS, limits.stream().map(LimitDefinition::getName).toList());
        span.setAttribute(RESULT, "rejected");
        span.setAttribute(DECIDED_BY, DecidedBy.FAIL_CLOSED.tag());
        span.addEvent(REJECTED_EVENT, Attributes.of(STATUS, 503L));
    }
}
