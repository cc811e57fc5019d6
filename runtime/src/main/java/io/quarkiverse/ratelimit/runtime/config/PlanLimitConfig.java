package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

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
}
