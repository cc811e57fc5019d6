package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;
import java.util.OptionalInt;

import io.quarkiverse.ratelimit.Mode;
import io.quarkus.runtime.annotations.ConfigGroup;

@ConfigGroup
public interface LimitRolloutConfig {

    /** This limit's mode; the global {@code quarkus.rate-limit.mode} when not set. */
    Optional<Mode> mode();

    /** This limit's share of enforced tenants (0 to 100); the global {@code rollout.percentage} when not set. */
    OptionalInt rolloutPercentage();
}
