package io.quarkiverse.ratelimit.runtime.http;

import java.util.Set;

/**
 * What the build found of the application's steps in Quarkus REST around each {@code @RateLimited} endpoint's
 * decision (a synthetic bean): a request filter that runs first (pre-matching, or at or before the limiter's
 * priority), and response filters or writer interceptors that see its answers. Where the application has none, a
 * refusal may be written straight to the response ({@link RateLimitRequestFilter}) and learned for answering before
 * Quarkus REST ({@link EarlyRefusals}): nothing of the application's would have seen it.
 */
public final class RestSteps {

    private final Set<String> afterRequestSteps;
    private final Set<String> withAnswerSteps;

    /**
     * @param afterRequestSteps the method ids ({@code MethodIds}) whose requests a step of the application's may answer
     *        before the limiter's filter
     * @param withAnswerSteps the method ids whose answers a response filter or writer interceptor sees
     */
    public RestSteps(Set<String> afterRequestSteps, Set<String> withAnswerSteps) {
        this.afterRequestSteps = Set.copyOf(afterRequestSteps);
        this.withAnswerSteps = Set.copyOf(withAnswerSteps);
    }

    /** Whether nothing of the application's runs in Quarkus REST before the limiter's filter for this endpoint. */
    public boolean nothingBeforeLimiter(String methodId) {
        return !afterRequestSteps.contains(methodId);
    }

    /** Whether this endpoint's answers go out through no response filter and no writer interceptor. */
    public boolean answersGoStraightOut(String methodId) {
        return !withAnswerSteps.contains(methodId);
    }
}
