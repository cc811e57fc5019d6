package io.quarkiverse.ratelimit.deployment;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The Dev Service that runs a local {@code redis-server} in dev and test mode. */
@ConfigMapping(prefix = "quarkus.rate-limit.devservices")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface RateLimitDevServicesConfig {

    /**
     * Whether to start a local {@code redis-server} process (no container needed) in dev and test mode when the Redis
     * client the rate limiter uses has no {@code hosts} configured and the Redis container Dev Service cannot run
     * (no container runtime, or it is disabled). It uses {@code redis-server} from the {@code PATH}, else the binary
     * shipped in {@code com.github.codemonstur:embedded-redis}; it listens on a free loopback port and is stopped with
     * the application.
     */
    @WithDefault("true")
    boolean enabled();
}
