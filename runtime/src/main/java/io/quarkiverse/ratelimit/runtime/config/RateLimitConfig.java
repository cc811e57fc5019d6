package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Run-time configuration of the rate limiter. */
@ConfigMapping(prefix = "quarkus.rate-limit")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface RateLimitConfig {

    /**
     * The prefix of every Redis key the rate limiter writes: {@code <key-prefix>:{<tenant>}:<limit name>:<algorithm>}.
     * At most 64 characters, without whitespace, <code>{</code> or <code>}</code> (they would break the hash tag that
     * keeps a tenant's keys in one Redis Cluster slot). Change it to run several applications on one Redis without
     * sharing counters.
     */
    @WithDefault("rate-limit")
    String keyPrefix();

    /** How the tenant of a call (whose counter it uses) is found. */
    Tenant tenant();

    interface Tenant {

        /**
         * The request header that names the tenant, for example {@code X-Tenant-Id}. When set, every limited call
         * must carry it: a call without it is refused with {@code 400 Bad Request}. When not set, the tenant is the
         * authenticated principal's name, or the client's IP address for anonymous calls (as Quarkus sees it: behind
         * a proxy, configure {@code quarkus.http.proxy.*}).
         * <p>
         * Tenant values are untrusted: they are escaped, and hashed when longer than 64 characters, before they
         * become part of a Redis key.
         */
        Optional<String> header();
    }
}
