package io.quarkiverse.ratelimit.runtime;

import java.util.List;

import io.quarkiverse.ratelimit.runtime.http.RateLimitHeaders;
import io.quarkus.runtime.annotations.RecordableConstructor;

/** Everything the interceptor needs for one method, computed at build time. */
public final class MethodLimits {

    private final List<LimitDefinition> limits;
    private final ReturnKind returnKind;
    private final String policyHeader;
    private final boolean refunds;

    @RecordableConstructor
    public MethodLimits(List<LimitDefinition> limits, ReturnKind returnKind) {
        this.limits = List.copyOf(limits);
        this.returnKind = returnKind;
        this.policyHeader = RateLimitHeaders.policy(this.limits);
        this.refunds = this.limits.stream()
                .anyMatch(limit -> !limit.getRefundOn().isEmpty() || limit.isRefundOnServerError());
    }

    /** Whether any limit gives back a failed call (most do not, and their calls skip all refund bookkeeping). */
    public boolean refunds() {
        return refunds;
    }

    public List<LimitDefinition> getLimits() {
        return limits;
    }

    public ReturnKind getReturnKind() {
        return returnKind;
    }

    /** The {@code RateLimit-Policy} header value, the same for every call. */
    public String policyHeader() {
        return policyHeader;
    }
}
