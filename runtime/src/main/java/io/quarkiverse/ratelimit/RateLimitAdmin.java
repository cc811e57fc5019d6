package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Changes limits while the application runs, for every instance at once: inject it (for example into an operator's
 * endpoint), or enable the built-in HTTP endpoints ({@code quarkus.rate-limit.admin.enabled}). Each method returns
 * once Redis has done it (at most {@link #TIMEOUT}); it must not be called on an event-loop thread. The same operations
 * as {@code Uni}s: {@link ReactiveRateLimitAdmin}, whose documentation says what each does.
 */
public interface RateLimitAdmin {

    /** The longest a method waits for Redis before it fails. */
    Duration TIMEOUT = Duration.ofSeconds(10);

    /** The reactive shape of the same operations. */
    ReactiveRateLimitAdmin reactive();

    /** Sets {@code tenant}'s limit (units per window) for {@code policy}; greater than zero. */
    void setLimit(String tenant, String policy, long limit);

    /** Removes {@code tenant}'s run-time limit for {@code policy}: the configured one applies again. */
    void removeLimit(String tenant, String policy);

    /** {@code tenant}'s run-time limits, by policy. */
    Map<String, Long> limits(String tenant);

    /**
     * What {@code subject} (a tenant, a client address, everyone) has left of each limit of {@code policy}, without
     * consuming anything; see {@link ReactiveRateLimitAdmin#status(RateLimitSubject, String)}.
     */
    List<RateLimitDecision> status(RateLimitSubject subject, String policy);

    /** {@link #status(RateLimitSubject, String)} of a tenant. */
    default List<RateLimitDecision> status(String tenant, String policy) {
        return status(RateLimitSubject.tenant(tenant), policy);
    }

    /**
     * The units of each limit of {@code policy} the instances lease out of {@code subject}'s counters and have not given
     * back, by limit name; see {@link ReactiveRateLimitAdmin#leased(RateLimitSubject, String)}.
     */
    Map<String, Long> leased(RateLimitSubject subject, String policy);

    /**
     * The callers refused most over the last {@code period} (whole minutes, 1 to 60), fleet-wide, the most refused
     * first; see {@link ReactiveRateLimitAdmin#refusedMost(Duration, int)}.
     */
    List<RefusedCaller> refusedMost(Duration period, int top);

    /**
     * Forgets what {@code subject} consumed of every limit of {@code policy}, on every instance; returns how many
     * counters held something (0: nothing to reset).
     */
    int reset(RateLimitSubject subject, String policy);

    /** {@link #reset(RateLimitSubject, String)} of a tenant. */
    default int reset(String tenant, String policy) {
        return reset(RateLimitSubject.tenant(tenant), policy);
    }

    /**
     * Refuses every limited call of {@code subject} (a tenant or a client address) with {@code 403 Forbidden}, whatever
     * way it comes in, on every instance, until unblocked.
     */
    void block(RateLimitSubject subject);

    /** {@link #block(RateLimitSubject)} of a tenant. */
    default void block(String tenant) {
        block(RateLimitSubject.tenant(tenant));
    }

    /** Lifts {@link #block}. */
    void unblock(RateLimitSubject subject);

    /** {@link #unblock(RateLimitSubject)} of a tenant. */
    default void unblock(String tenant) {
        unblock(RateLimitSubject.tenant(tenant));
    }

    /** The policies (and names of limits without one) this application knows: what the other methods accept. */
    List<String> policies();

    /**
     * Switches the limits of {@code policy}, or every limit when {@code null} (the kill switch); see
     * {@link ReactiveRateLimitAdmin#setSwitches}. A {@code null} setting stays as it is.
     */
    void setSwitches(String policy, Mode mode, Integer rolloutPercentage, FailureMode failureMode);

    /** {@link #setSwitches} of the mode alone: {@code shadow} or {@code off} with a {@code null} policy is the kill switch. */
    default void setMode(String policy, Mode mode) {
        setSwitches(policy, mode, null, null);
    }

    /** Removes the run-time switches of {@code policy} (every limit when {@code null}): configuration applies. */
    void clearSwitches(String policy);

    /**
     * The run-time switches in force on this instance: by policy or name ({@code *} for every limit), each setting
     * ({@code mode}, {@code rolloutPercentage}, {@code failureMode}) with its value.
     */
    Map<String, Map<String, Object>> switches();
}
