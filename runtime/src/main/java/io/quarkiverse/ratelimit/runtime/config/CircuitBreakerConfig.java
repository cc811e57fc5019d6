package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface CircuitBreakerConfig {

    /**
     * How many Redis failures or timeouts in a row open the breaker. While open, no decision waits on Redis: every
     * limit uses its failure mode at once.
     */
    @WithDefault("3")
    int failureThreshold();

    /**
     * How long the breaker stays open before one call probes Redis again; the probe's success closes it. Short, so
     * that exact limiting resumes soon after Redis does; each probe of a still-broken Redis costs one request at
     * most one decision timeout.
     */
    @WithDefault("10s")
    Duration openDuration();
}
