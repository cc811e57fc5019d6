package io.quarkiverse.ratelimit.runtime.limit;

import java.util.Map;

/** The limits of every {@code @RateLimited} method, recorded at build time (a synthetic bean). */
public final class DeclaredLimits {

    private final Map<String, MethodLimits> byMethodId;

    public DeclaredLimits(Map<String, MethodLimits> byMethodId) {
        this.byMethodId = Map.copyOf(byMethodId);
    }

    /** Every method's limits, by method id ({@link MethodIds}). */
    public Map<String, MethodLimits> all() {
        return byMethodId;
    }
}
