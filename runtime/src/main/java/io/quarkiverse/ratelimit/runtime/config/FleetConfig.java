package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface FleetConfig {

    /**
     * How often each instance announces itself in Redis, and hears how many instances share the limits. An instance
     * that has not announced itself for three heartbeats no longer counts; one that stops cleanly leaves at once.
     */
    @WithDefault("1s")
    Duration heartbeat();
}
