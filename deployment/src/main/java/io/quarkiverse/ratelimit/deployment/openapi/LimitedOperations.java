package io.quarkiverse.ratelimit.deployment.openapi;

import java.util.Map;

import org.eclipse.microprofile.openapi.OASFilter;

/** The OpenAPI filter that describes the limited operations, for the build step that hands it to SmallRye OpenAPI. */
public final class LimitedOperations {

    /** The {@code algorithm} a concurrency limit is described with in {@code x-rate-limit}. */
    public static final String CONCURRENCY = LimitedOperationsFilter.CONCURRENCY;

    private LimitedOperations() {
    }

    /** @param operations by {@code METHOD /path/{template}} */
    public static OASFilter filter(Map<String, LimitedOperation> operations) {
        return new LimitedOperationsFilter(Map.copyOf(operations));
    }
}
