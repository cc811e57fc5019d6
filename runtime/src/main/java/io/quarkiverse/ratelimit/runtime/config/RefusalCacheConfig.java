package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface RefusalCacheConfig {

    /** Whether refusals are cached; a limit can opt out with {@code @RateLimited(cacheRefusals = false)}. */
    @WithDefault("true")
    boolean enabled();

    /** The most refusals held (tenant and limit pairs); beyond it the least recently used are dropped. */
    @WithDefault("10000")
    int maxEntries();

    /**
     * How long cached refusals keep answering when this instance cannot confirm that it hears invalidations.
     * Every change that can turn a refusal into an admission (a refund, a reset, a run-time limit, an unblock, a
     * switch), made on any instance, is published on a Redis channel every instance subscribes to, and clears the
     * matching refusals everywhere within milliseconds. The subscription is checked four times within this time;
     * when it is down or silent for longer, refusals are no longer answered locally (every call goes to Redis)
     * until it is back. So a change missed by an instance ends its cached refusals within this time at most.
     */
    @WithDefault("1s")
    Duration unconfirmedLifetime();
}
