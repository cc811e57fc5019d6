package io.quarkiverse.ratelimit.runtime.config;

import java.util.OptionalInt;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface LocalFallbackConfig {

    /**
     * How many instances share the limits, when set: while Redis is unavailable each instance allows
     * {@code limit / expected-instances}, rounded down and at least 1, per window, so the fleet stays at or under a
     * limit of at least this many, and allows one a window per instance for a smaller one. When not set, an instance
     * divides by the live instances it last heard of in Redis before Redis went away ({@code fleet.heartbeat}), and by 1
     * when it never heard.
     */
    OptionalInt expectedInstances();

    /**
     * The most tenant-and-limit counters one instance keeps; beyond it, the least recently used are dropped (and
     * start again from zero). Counters expire two windows after their last use.
     */
    @WithDefault("100000")
    int maxEntries();
}
