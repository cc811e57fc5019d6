package io.quarkiverse.ratelimit.runtime;

import java.time.Duration;
import java.util.List;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
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
    private final Duration window;
    private final List<String> scriptArguments;

    @RecordableConstructor
    public LimitDefinition(String name, long limit, long windowMillis, Algorithm algorithm, FailureMode failureMode,
            long cost) {
        this.name = name;
        this.limit = limit;
        this.windowMillis = windowMillis;
        this.algorithm = algorithm;
        this.failureMode = failureMode;
        this.cost = cost;
        this.window = Duration.ofMillis(windowMillis);
        this.scriptArguments = List.of(RateLimitScripts.moduleName(algorithm), Long.toString(limit),
                Long.toString(windowMillis), Long.toString(cost));
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

    /** Units one call consumes. */
    public long getCost() {
        return cost;
    }

    /** This limit's {@code ARGV} in {@code rate_limit.lua}: algorithm module, limit, window in milliseconds, cost. */
    public List<String> scriptArguments() {
        return scriptArguments;
    }

    /** Same counter semantics: two methods may share a name only if this holds. */
    public boolean sameLimitAs(LimitDefinition other) {
        return limit == other.limit && windowMillis == other.windowMillis && algorithm == other.algorithm;
    }

    @Override
    public String toString() {
        return name + " (" + limit + " per " + window + ", " + algorithm + ")";
    }
}
