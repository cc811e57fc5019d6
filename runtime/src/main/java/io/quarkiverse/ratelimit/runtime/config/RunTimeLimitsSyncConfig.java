package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface RunTimeLimitsSyncConfig {

    /**
     * How often each instance checks Redis for changed run-time limits (one {@code GET} of a version counter; the
     * limits are reloaded only when it moved): the most time a change takes to apply on every instance.
     */
    @WithDefault("1s")
    Duration refreshInterval();
}
