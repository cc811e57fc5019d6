package io.quarkiverse.ratelimit.runtime.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Scope;
import io.quarkus.runtime.annotations.ConfigGroup;

/** One named policy; every value is optional and, when set, overrides the annotation's. */
@ConfigGroup
public interface PolicyConfig {

    /** How many units are allowed per window. */
    OptionalLong limit();

    /** The window length ({@code 1m}, {@code 10s}, {@code PT1H}). */
    Optional<Duration> window();

    /** How calls are counted. */
    Optional<Algorithm> algorithm();

    /** Units allowed at once (token bucket and GCRA). */
    OptionalLong burst();

    /** Units one call consumes. */
    OptionalLong cost();

    /**
     * How long a call may wait for a later slot instead of being refused ({@code 0}: it may not); token bucket and
     * GCRA only (see {@code @RateLimited(maxWait)}).
     */
    Optional<Duration> maxWait();

    /**
     * How late a call that waited for its slot may still go (see {@code quarkus.rate-limit.late-slot-tolerance} and
     * {@code @RateLimited(lateSlotTolerance)}).
     */
    Optional<Duration> lateSlotTolerance();

    /**
     * Whether the limit learns the real quota of the service a REST Client calls from its 429 answers (see
     * {@code @RateLimited(adaptive)} and {@code quarkus.rate-limit.adaptive}); only for REST Client methods.
     */
    Optional<Boolean> adaptive();

    /** The time zone of this policy's calendar periods (see {@code quarkus.rate-limit.time-zone}). */
    Optional<String> timeZone();

    /** Whose calls one counter counts: {@code tenant}, {@code client-address} or {@code global}. */
    Optional<Scope> scope();

    /**
     * What the limit does when Redis cannot decide: {@code local}, {@code fail-open} or {@code fail-closed} (see
     * {@code quarkus.rate-limit.failure-mode}; {@code default} fails start-up).
     */
    Optional<FailureMode> failureMode();

    /** Where the tenant comes from, and what happens without one. */
    PolicyTenantConfig tenant();
}
