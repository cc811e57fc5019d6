package io.quarkiverse.ratelimit.runtime.limit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkus.runtime.annotations.RecordableConstructor;

/** One validated {@code @RateLimited}, computed at build time and recorded for run time. */
public final class LimitDefinition {

    private final String name;
    private final long limit;
    private final long windowMillis;
    private final Algorithm algorithm;
    private final FailureMode failureMode;
    private final long cost;
    private final List<String> refundOn;
    private final boolean refundOnServerError;
    private final long burst;
    private final Scope scope;
    private final String policy;
    private final TenantSource tenantSource;
    private final String endpoint;
    private final List<Integer> keyParameters;
    private final Duration window;
    private final boolean cacheRefusals;

    public LimitDefinition(String name, long limit, long windowMillis, Algorithm algorithm, FailureMode failureMode,
            long cost) {
        this(name, limit, windowMillis, algorithm, failureMode, cost, List.of(), false, 0, Scope.TENANT);
    }

    public LimitDefinition(String name, long limit, long windowMillis, Algorithm algorithm, FailureMode failureMode,
            long cost, List<String> refundOn, boolean refundOnServerError, long burst, Scope scope) {
        this(name, limit, windowMillis, algorithm, failureMode, cost, refundOn, refundOnServerError, burst, scope, null,
                TenantSource.DEFAULT, null, List.of(), true);
    }

    /**
     * @param burst units allowed at once for the token bucket and GCRA; 0 for {@code limit}
     * @param policy the named policy whose configuration applies, {@code null} for none
     * @param endpoint the key segment of the HTTP method and path template when counted per endpoint, else {@code null}
     * @param keyParameters the positions of the method parameters whose values split the counter
     * @param cacheRefusals whether this instance may repeat a refusal of Redis locally until its retry time
     */
    @RecordableConstructor
    public LimitDefinition(String name, long limit, long windowMillis, Algorithm algorithm, FailureMode failureMode,
            long cost, List<String> refundOn, boolean refundOnServerError, long burst, Scope scope, String policy,
            TenantSource tenantSource, String endpoint, List<Integer> keyParameters, boolean cacheRefusals) {
        this.cacheRefusals = cacheRefusals;
        this.policy = policy;
        this.tenantSource = tenantSource;
        this.endpoint = endpoint;
        this.keyParameters = List.copyOf(keyParameters);
        this.name = name;
        this.limit = limit;
        this.windowMillis = windowMillis;
        this.algorithm = algorithm;
        this.failureMode = failureMode;
        this.cost = cost;
        this.refundOn = List.copyOf(refundOn);
        this.refundOnServerError = refundOnServerError;
        this.burst = burst;
        this.scope = scope;
        this.window = Duration.ofMillis(windowMillis);
    }

    /** This limit with the values configuration gave it (a policy, a plan). */
    public LimitDefinition withValues(long limit, long windowMillis, Algorithm algorithm, long burst, long cost,
            Scope scope, FailureMode failureMode, TenantSource tenantSource) {
        return new LimitDefinition(name, limit, windowMillis, algorithm, failureMode, cost, refundOn,
                refundOnServerError, burst, scope, policy, tenantSource, endpoint, keyParameters, cacheRefusals);
    }

    /** Whether this instance may repeat a refusal of Redis locally until its retry time. */
    public boolean isCacheRefusals() {
        return cacheRefusals;
    }

    /** The named policy whose configuration applies, {@code null} for none. */
    public String getPolicy() {
        return policy;
    }

    /** As declared: {@link TenantSource#DEFAULT} means the configured one. */
    public TenantSource getTenantSource() {
        return tenantSource;
    }

    /** The key segment naming the HTTP method and path template, {@code null} unless counted per endpoint. */
    public String getEndpoint() {
        return endpoint;
    }

    /** Positions of the method parameters whose values split the counter. */
    public List<Integer> getKeyParameters() {
        return keyParameters;
    }

    /** The field of this limit in a tenant's run-time limits: its policy, or its name when it has none. */
    public String overrideName() {
        return policy != null ? policy : name;
    }

    public String getName() {
        return name;
    }

    public long getLimit() {
        return limit;
    }

    public long getWindowMillis() {
        return windowMillis;
    }

    public Algorithm getAlgorithm() {
        return algorithm;
    }

    /** As declared: {@link FailureMode#DEFAULT} means the configured one. */
    public FailureMode getFailureMode() {
        return failureMode;
    }

    public Duration window() {
        return window;
    }

    /** Binary names of the exception types that refund a failed call. */
    public List<String> getRefundOn() {
        return refundOn;
    }

    public boolean isRefundOnServerError() {
        return refundOnServerError;
    }

    /** Whether {@code failure} is, or extends, one of the {@link #getRefundOn()} types (by name: no reflection). */
    public boolean refundsOn(Throwable failure) {
        if (refundOn.isEmpty()) {
            return false;
        }
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            if (refundOn.contains(type.getName())) {
                return true;
            }
        }
        return false;
    }

    public Scope getScope() {
        return scope;
    }

    /** As declared: 0 means the limit. */
    public long getBurst() {
        return burst;
    }

    /** Units one call consumes. */
    public long getCost() {
        return cost;
    }

    /** Same counter semantics: two methods may share a name only if this holds. */
    public boolean sameLimitAs(LimitDefinition other) {
        return limit == other.limit && windowMillis == other.windowMillis && algorithm == other.algorithm
                && scope == other.scope && Objects.equals(policy, other.policy)
                && (endpoint == null) == (other.endpoint == null) && keyParameters.size() == other.keyParameters.size();
    }

    @Override
    public String toString() {
        return name + " (" + limit + " per " + window + ", " + algorithm + (scope == Scope.TENANT ? "" : ", " + scope)
                + ")";
    }
}
