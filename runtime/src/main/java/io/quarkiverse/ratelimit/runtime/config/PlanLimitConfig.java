package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkus.runtime.annotations.ConfigGroup;

/** A plan's values of one policy. */
@ConfigGroup
public interface PlanLimitConfig {

    /** How many units the plan's tenants are allowed per window. */
    OptionalLong limit();

    /** The window length for the plan's tenants. */
    Optional<Duration> window();

    /** Units allowed at once for the plan's tenants (token bucket and GCRA). */
    OptionalLong burst();

    /**
     * What the limit does for the plan's tenants when Redis cannot decide: {@code local}, {@code fail-open} or
     * {@code fail-closed} (an enterprise plan can fail open while the free tier fails closed); else the policy's (see
     * {@code quarkus.rate-limit.failure-mode}; {@code default} fails start-up).
     */
    Optional<FailureMode> failureMode();
}
