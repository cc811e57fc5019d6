package io.quarkiverse.ratelimit.runtime.config;

/** How the state of a call's limits is written in its response's headers. */
public enum HeaderStyle {
    /** {@code RateLimit} and {@code RateLimit-Policy} (draft-ietf-httpapi-ratelimit-headers). */
    IETF,
    /** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining}, {@code X-RateLimit-Reset}. */
    X_RATE_LIMIT
}
