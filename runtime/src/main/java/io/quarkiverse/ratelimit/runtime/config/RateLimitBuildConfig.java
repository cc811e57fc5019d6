package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;

import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Configuration fixed at build time. */
@ConfigMapping(prefix = "quarkus.rate-limit")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface RateLimitBuildConfig {

    /**
     * The name of the Redis client to keep the counters in (a {@code quarkus.redis.<name>.*} client). The default
     * Redis client when not set.
     * <p>
     * Unless you configure them, the extension raises two defaults of that client so that a burst of concurrent
     * requests queues for a connection instead of failing: {@code max-pool-size} to 16 and {@code max-pool-waiting}
     * to 4096.
     */
    Optional<String> redisClientName();

    /** The Redis client the limits use: {@link #redisClientName()}, else Quarkus's default client. */
    static String redisClient(RateLimitBuildConfig config) {
        return config.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME);
    }

    /**
     * Whether calls of {@code @RateLimited} REST endpoints are decided on the event loop before Quarkus REST
     * dispatches them, by a non-blocking request filter: a refused call then never takes a worker thread. Quarkus REST
     * requires non-blocking request filters to run before blocking ones, so this filter has the priority
     * {@code 500}, before {@code Priorities.AUTHENTICATION}: an application whose own blocking request filter has a
     * lower priority fails its build, and can turn this off (the interceptor then decides every call, after the
     * filters, on the worker thread for blocking endpoints).
     */
    @WithDefault("true")
    boolean decideBeforeDispatch();

    /** The HTTP endpoints of {@code RateLimitAdmin}. */
    AdminEndpoints admin();

    /** The readiness check. */
    HealthCheck health();

    /** The endpoint where a tenant reads its own limits. */
    UsageEndpoint usage();

    interface UsageEndpoint {

        /**
         * Whether to serve {@code GET} on {@code usage.path}: the calling tenant's own limits, what is left of each
         * and when it resets, read without counting against any of them. Off by default. The tenant is found as for
         * a limited call ({@code quarkus.rate-limit.tenant.*}); a call without one is refused with the missing
         * tenant's status, a blocked tenant with 403; reading has a limit of its own ({@code usage.limit}).
         */
        @WithDefault("false")
        boolean enabled();

        /** The path of the usage endpoint, under the HTTP root path. */
        @WithDefault("/rate-limit/usage")
        String path();
    }

    /** The limits in the application's OpenAPI document. */
    OpenApi openapi();

    interface OpenApi {

        /**
         * Whether, with quarkus-smallrye-openapi in the application, every REST operation limited by
         * {@code @RateLimited} or {@code @ConcurrencyLimited} gets its refusals in the OpenAPI document, built with it:
         * the {@code 429} (problem body, {@code RateLimit}, {@code RateLimit-Policy} and {@code Retry-After} headers),
         * a {@code 503} where a limit fails closed, a {@code 403} where a tenant can be blocked, the status of a call
         * without a tenant where one is required, and {@code x-rate-limit}: each limit as configured when the
         * application was built.
         */
        @WithDefault("true")
        boolean enabled();
    }

    interface HealthCheck {

        /**
         * Whether to publish the readiness check {@code rate-limit} when the application has quarkus-smallrye-health.
         */
        @WithDefault("true")
        boolean enabled();
    }

    interface AdminEndpoints {

        /**
         * Whether to serve the administration endpoints under {@code <non-application root>/rate-limit}
         * ({@code /q/rate-limit} by default): a tenant's run-time limits, status and counters. Off by default; when
         * on, every call must come from an authenticated identity with the role {@code quarkus.rate-limit.admin.role}.
         */
        @WithDefault("false")
        boolean enabled();
    }
}
