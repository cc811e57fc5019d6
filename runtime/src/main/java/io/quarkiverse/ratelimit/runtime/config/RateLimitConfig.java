package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;
import java.util.Optional;

import io.quarkiverse.ratelimit.FailureMode;

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

    /**
     * How long one decision may wait for Redis before the limit's failure mode decides instead. It is the point at
     * which the limiter concludes that Redis is broken, not the normal latency of a decision (well under a
     * millisecond), so it must exceed the worst latency a healthy Redis shows to a saturated instance: a cold 2-core
     * instance taking a burst of 300 concurrent requests saw 300 to 400 ms, hence 1 s. Only the calls in flight when
     * Redis breaks pay it: after {@code circuit-breaker.failure-threshold} failures no call waits on Redis at all.
     */
    @WithDefault("1s")
    Duration decisionTimeout();

    /**
     * What a limit does when Redis cannot decide (down, paused, timing out, or the circuit breaker is open), unless
     * its annotation sets {@code failureMode}: {@code local} (this instance's in-process limiter), {@code fail-open}
     * (admit) or {@code fail-closed} (refuse with 503).
     */
    @WithDefault("local")
    FailureMode failureMode();

    /** The circuit breaker that stops calling Redis after repeated failures. */
    CircuitBreaker circuitBreaker();

    /** The in-process limiter used by the {@code local} failure mode. */
    LocalFallback localFallback();

    interface CircuitBreaker {

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

    interface LocalFallback {

        /**
         * How many instances share the limits. While Redis is unavailable each instance allows
         * {@code limit / expected-instances} (at least 1) per window, so the fleet stays near the limit.
         */
        @WithDefault("1")
        int expectedInstances();

        /**
         * The most tenant-and-limit counters one instance keeps; beyond it, the least recently used are dropped (and
         * start again from zero). Counters expire two windows after their last use.
         */
        @WithDefault("100000")
        int maxEntries();
    }

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
