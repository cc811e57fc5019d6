package io.quarkiverse.ratelimit.runtime.http;

import java.util.Set;

/**
 * The {@code @RateLimited} methods that no annotation of Quarkus's security covers (nor a default the build applies
 * to unannotated endpoints), recorded at build time (a synthetic bean): the only ones whose refusals may be answered
 * before Quarkus REST ({@link EarlyRefusals}), since security checks run inside it.
 */
public final class OpenEndpoints {

    private final Set<String> methodIds;

    public OpenEndpoints(Set<String> methodIds) {
        this.methodIds = Set.copyOf(methodIds);
    }

    /** By method id ({@code MethodIds}). */
    public boolean isOpen(String methodId) {
        return methodIds.contains(methodId);
    }
}
