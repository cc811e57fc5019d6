package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

/** Configuration fixed at build time. */
@ConfigMapping(prefix = "quarkus.rate-limit")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface RateLimitFixedConfig {

    /**
     * The name of the Redis client to keep the counters in (a {@code quarkus.redis.<name>.*} client). The default
     * Redis client when not set.
     * <p>
     * Unless you configure them, the extension raises two defaults of that client so that a burst of concurrent
     * requests queues for a connection instead of failing: {@code max-pool-size} to 16 and {@code max-pool-waiting}
     * to 4096.
     */
    Optional<String> redisClientName();
}
