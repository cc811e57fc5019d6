package io.quarkiverse.ratelimit.runtime;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The limits of every {@code @RateLimited} method, recorded at build time (a synthetic bean). */
public final class RateLimitedMethods {

    private final Map<String, MethodLimits> byMethodId;
    private final Map<Method, MethodLimits> byMethod = new ConcurrentHashMap<>();
    private final Map<String, ConcurrencyDefinition> concurrencyByMethodId;
    private final Map<Method, ConcurrencyDefinition> concurrencyByMethod = new ConcurrentHashMap<>();

    public RateLimitedMethods(Map<String, MethodLimits> byMethodId,
            Map<String, ConcurrencyDefinition> concurrencyByMethodId) {
        this.byMethodId = Map.copyOf(byMethodId);
        this.concurrencyByMethodId = Map.copyOf(concurrencyByMethodId);
    }

    /** The concurrency limit of a method the concurrency interceptor was bound to; computed once per method. */
    public ConcurrencyDefinition concurrencyFor(Method method) {
        ConcurrencyDefinition limit = concurrencyByMethod.get(method);
        if (limit == null) {
            limit = concurrencyByMethod.computeIfAbsent(method, m -> {
                ConcurrencyDefinition recorded = concurrencyByMethodId.get(MethodIds.of(m));
                if (recorded == null) {
                    throw new IllegalStateException("No @ConcurrencyLimited limit was recorded for " + MethodIds.of(m));
                }
                return recorded;
            });
        }
        return limit;
    }

    /** The limits of a method the interceptor was bound to; computed once per method. */
    public MethodLimits forMethod(Method method) {
        MethodLimits limits = byMethod.get(method);
        if (limits == null) {
            limits = byMethod.computeIfAbsent(method, this::lookUp);
        }
        return limits;
    }

    private MethodLimits lookUp(Method method) {
        String id = MethodIds.of(method);
        MethodLimits limits = byMethodId.get(id);
        if (limits == null) {
            throw new IllegalStateException("No @RateLimited limits were recorded at build time for " + id
                    + "; a method inherited from a superclass is only limited if it is annotated or overridden"
                    + " in the annotated class");
        }
        return limits;
    }

    public Map<String, MethodLimits> all() {
        return byMethodId;
    }
}
