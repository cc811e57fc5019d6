package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

/** The usage endpoint's own limit ({@code quarkus.rate-limit.usage.enabled}). */
@ConfigGroup
public interface UsageConfig {

    /**
     * How many times a tenant may read its usage per {@code usage.window}: reading is cheap (one Redis call per hash tag
     * of its limits) but not free, and a client polling in a loop must not load Redis. A sliding window per tenant.
     */
    @WithDefault("60")
    long limit();

    /** The window of {@code usage.limit}. */
    @WithDefault("1m")
    Duration window();
}
