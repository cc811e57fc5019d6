package io.quarkiverse.ratelimit.runtime.limit;

/** How a rate-limited method returns its result, which decides how the interceptor waits for the decision. */
public enum ReturnKind {
    /** A plain value: the decision is awaited on the calling (worker) thread. */
    SYNCHRONOUS,
    /** {@code Uni}: the decision is chained before the method's Uni. */
    UNI,
    /** {@code Multi}: the decision is chained before the method's stream. */
    MULTI,
    /** {@code CompletionStage} / {@code CompletableFuture}. */
    COMPLETION_STAGE
}
