package io.quarkiverse.ratelimit.runtime.limit;

import java.util.List;
import java.util.Map;

import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.redis.RateLimitScripts;
import io.quarkus.runtime.annotations.RecordableConstructor;

/** Everything the interceptor needs for one method, computed at build time. */
public final class MethodLimits {

    private final List<LimitDefinition> limits;
    private final ReturnKind returnKind;
    private final boolean refunds;
    private final String callTag;
    private final boolean needsTenant;
    private final boolean needsClientAddress;
    private final Map<String, Integer> parameters;
    private final int algorithmSet;

    public MethodLimits(List<LimitDefinition> limits, ReturnKind returnKind) {
        this(limits, returnKind, Map.of());
    }

    /** @param parameters the position of each named parameter of the method (JAX-RS name or Java name) */
    @RecordableConstructor
    public MethodLimits(List<LimitDefinition> limits, ReturnKind returnKind, Map<String, Integer> parameters) {
        this.limits = List.copyOf(limits);
        this.returnKind = returnKind;
        this.parameters = Map.copyOf(parameters);
        this.refunds = this.limits.stream()
                .anyMatch(limit -> !limit.getRefundOn().isEmpty() || limit.isRefundOnServerError());
        this.callTag = callTag(this.limits);
        this.needsTenant = this.limits.stream().anyMatch(limit -> limit.getScope() == Scope.TENANT);
        this.needsClientAddress = this.limits.stream().anyMatch(limit -> limit.getScope() == Scope.CLIENT_ADDRESS);
        this.algorithmSet = RateLimitScripts.algorithmSet(this.limits);
    }

    /**
     * The hash tag of every key of a call when the method mixes scopes ({@code ~m:} and the name of its first limit
     * that is not per tenant), so that one script call stays in one cluster slot; {@code null} when every limit is per
     * tenant and the tenant is the tag.
     */
    static String callTag(List<LimitDefinition> limits) {
        for (LimitDefinition limit : limits) {
            if (limit.getScope() != Scope.TENANT) {
                return "~m:" + limit.getName();
            }
        }
        return null;
    }

    /** The position of each named parameter of the method. */
    public Map<String, Integer> getParameters() {
        return parameters;
    }

    /** The same method with other limit values (configuration); the key layout must not change. */
    public MethodLimits withLimits(List<LimitDefinition> configured) {
        return new MethodLimits(configured, returnKind, parameters);
    }

    /** The algorithms of the method's limits: which script decides its calls. */
    public int algorithmSet() {
        return algorithmSet;
    }

    public String callTag() {
        return callTag;
    }

    /** Whether a call needs its client address's tag. */
    public boolean needsClientAddress() {
        return needsClientAddress;
    }

    /** Whether a call needs its tenant resolved (a method with only global or per-address limits does not). */
    public boolean needsTenant() {
        return needsTenant;
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

}
