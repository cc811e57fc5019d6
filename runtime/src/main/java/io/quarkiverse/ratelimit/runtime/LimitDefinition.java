package io.quarkiverse.ratelimit.runtime;

import java.time.Duration;
import java.util.List;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.redis.RateLimitScripts;
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
    private final Duration window;
    private final List<String> scriptArguments;

    public LimitDefinition(String name, long limit, long windowMillis, Algorithm algorithm, FailureMode failureMode,
            long cost) {
        this(name, limit, windowMillis, algorithm, failureMode, cost, List.of(), false, 0, Scope.TENANT);
    }

    /** @param burst units allowed at once for the token bucket and GCRA; 0 for {@code limit} */
    @RecordableConstructor
    public LimitDefinition(String name, long limit, long windowMillis, Algorithm algorithm, FailureMode failureMode,
            long cost, List<String> refundOn, boolean refundOnServerError, long burst, Scope scope) {
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
        this.scriptArguments = List.of(RateLimitScripts.moduleName(algorithm), Long.toString(limit),
                Long.toString(windowMillis), Long.toString(cost), Long.toString(burst > 0 ? burst : limit));
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

    /** This limit's {@code ARGV} in {@code rate_limit.lua}: algorithm module, limit, window in ms, cost, burst. */
    public List<String> scriptArguments() {
        return scriptArguments;
    }

    /** Same counter semantics: two methods may share a name only if this holds. */
    public boolean sameLimitAs(LimitDefinition other) {
        return limit == other.limit && windowMillis == other.windowMillis && algorithm == other.algorithm
                && scope == other.scope;
    }

    @Override
    public String toString() {
        return name + " (" + limit + " per " + window + ", " + algorithm + (scope == Scope.TENANT ? "" : ", " + scope)
                + ")";
    }
}
