package io.quarkiverse.ratelimit.runtime.config;

/** {@link #unusedPolicies()}. */
public enum UnusedPolicies {
    FAIL,
    WARN
}
