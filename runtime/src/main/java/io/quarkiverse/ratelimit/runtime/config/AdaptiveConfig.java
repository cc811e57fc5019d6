package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

/**
 * An adaptive limit's learned value: lowered multiplicatively by each 429 of the service (but for a call decided
 * before the last decrease: in flight or queued at the old rate, it gets the same answer), held for a while, then raised
 * additively up to where the
 * service last refused, and beyond it in steps that double, up to the configured limit. Fleet-wide, in Redis.
 */
@ConfigGroup
public interface AdaptiveConfig {

    /** What a 429 multiplies the learned limit by, above 0 and below 1. */
    @WithDefault("0.9")
    double decreaseFactor();

    /**
     * How long the learned limit holds after a 429 before it grows, and then how often it grows. A 429 once it
     * grows doubles the next hold, up to {@code longest-hold}: a fleet that has found the service's quota tries
     * more less and less often.
     */
    @WithDefault("5s")
    Duration increaseInterval();

    /**
     * The step the learned limit grows by, as a share of the configured limit; beyond where the service last
     * refused, each next step doubles.
     */
    @WithDefault("0.02")
    double increaseStep();

    /**
     * The longest hold after a 429 (see {@code increase-interval}); a 429 after the limit grew this long without
     * one starts the hold at one interval again.
     */
    @WithDefault("5m")
    Duration longestHold();
}
