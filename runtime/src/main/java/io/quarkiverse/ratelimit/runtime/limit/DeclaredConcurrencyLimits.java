package io.quarkiverse.ratelimit.runtime.limit;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The limit of every {@code @ConcurrencyLimited} method, recorded at build time (a synthetic bean). */
public final class DeclaredConcurrencyLimits {

    private final Map<String, ConcurrencyDefinition> byMethodId;
    private final Map<Method, ConcurrencyDefinition> byMethod = new ConcurrentHashMap<>();

    public DeclaredConcurrencyLimits(Map<String, ConcurrencyDefinition> byMethodId) {
        this.byMethodId = Map.copyOf(byMethodId);
    }

    /** The concurrency limit of a method the concurrency interceptor was bound to; looked up once per method. */
    public ConcurrencyDefinition forMethod(Method method) {
        ConcurrencyDefinition limit = byMethod.get(method);
        if (limit == null) {
            limit = byMethod.computeIfAbsent(method, m -> {
                ConcurrencyDefinition recorded = byMethodId.get(MethodIds.of(m));
                if (recorded == null) {
                    throw new IllegalStateException("No @ConcurrencyLimited limit was recorded for " + MethodIds.of(m));
                }
                return recorded;
            });
        }
        return limit;
    }

    /** Whether some method is {@code @ConcurrencyLimited}. */
    public boolean any() {
        return !byMethodId.isEmpty();
    }

    /** Every limit, by method id. */
    public Map<String, ConcurrencyDefinition> all() {
        return byMethodId;
    }
}
