package io.quarkiverse.ratelimit.runtime.limit;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The limits of every {@code @RateLimited} method, recorded at build time (a synthetic bean). */
public final class DeclaredLimits {

    private final Map<String, MethodLimits> byMethodId;
    private final Map<String, ConcurrencyDefinition> concurrencyByMethodId;
    private final Map<Method, ConcurrencyDefinition> concurrencyByMethod = new ConcurrentHashMap<>();

    private final boolean tokensAvailable;

    /** @param tokensAvailable whether the application can authenticate JSON Web Tokens (smallrye-jwt or oidc) */
    public DeclaredLimits(Map<String, MethodLimits> byMethodId,
            Map<String, ConcurrencyDefinition> concurrencyByMethodId, boolean tokensAvailable) {
        this.tokensAvailable = tokensAvailable;
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

    /** Whether some method is {@code @ConcurrencyLimited}. */
    public boolean hasConcurrencyLimits() {
        return !concurrencyByMethodId.isEmpty();
    }

    /** Whether the application can authenticate JSON Web Tokens, for the {@code jwt-claim} tenant source. */
    public boolean tokensAvailable() {
        return tokensAvailable;
    }

    public Map<String, MethodLimits> all() {
        return byMethodId;
    }

    /** The {@code @ConcurrencyLimited} limits, by method id. */
    public Map<String, ConcurrencyDefinition> concurrencyLimits() {
        return concurrencyByMethodId;
    }
}
