package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface DurableConfig {

    /**
     * How many replicas must acknowledge a decision's write before it counts; 0 turns durable decisions off. Each
     * decision is followed by a {@code WAIT} on its connection; a decision not acknowledged in time is decided by
     * the limit's failure mode, as when Redis cannot answer. Standalone with replicas, or Sentinel: a cluster
     * cannot route {@code WAIT} to the decision's master, and start-up refuses it.
     */
    @WithDefault("0")
    int replicas();

    /** How long a decision waits for the replicas' acknowledgement; less than {@code decision-timeout}. */
    @WithDefault("100ms")
    Duration timeout();
}
