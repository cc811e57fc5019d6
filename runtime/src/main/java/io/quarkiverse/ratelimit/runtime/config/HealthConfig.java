package io.quarkiverse.ratelimit.runtime.config;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface HealthConfig {

    /**
     * Whether the readiness check reports DOWN while Redis does not answer a PING within {@code decision-timeout}
     * (an open circuit breaker alone never makes it DOWN: only calls probe the breaker). Off by default: while Redis is
     * down every limit is still decided by its failure mode, and taking
     * every instance out of rotation would turn a Redis outage into a total one. Turn it on when a fail-closed
     * instance is better out of rotation, say behind a load balancer that has somewhere else to send the calls.
     */
    @WithDefault("false")
    boolean strict();
}
