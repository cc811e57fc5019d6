package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.smallrye.mutiny.Uni;

/**
 * Changes limits while the application runs, for every instance at once: the reactive shape of {@link RateLimitAdmin}
 * (as Quarkus's {@code ReactiveRedisDataSource} is of {@code RedisDataSource}). Nothing happens until the returned
 * {@link Uni} is subscribed to: return it from a reactive endpoint, or chain it.
 * <p>
 * A tenant's run-time limit is stored in Redis; every instance keeps a copy: a change applies at once on the instance
 * that made it, and is announced to every other, which applies it within milliseconds (at the latest within
 * {@code quarkus.rate-limit.run-time-limits.refresh-interval}, 1 s, should it miss the announcement). It replaces the
 * limit of every limit that uses {@code policy} (or, for a limit without a policy, is named so), whatever the
 * tenant's plan; it stays until removed, and stays in force while Redis is unreachable.
 */
public interface ReactiveRateLimitAdmin {

    /** Sets {@code tenant}'s limit (units per window) for {@code policy}; greater than zero. */
    Uni<Void> setLimit(String tenant, String policy, long limit);

    /** Removes {@code tenant}'s run-time limit for {@code policy}: the configured one applies again. */
    Uni<Void> removeLimit(String tenant, String policy);

    /** {@code tenant}'s run-time limits, by policy. */
    Uni<Map<String, Long>> limits(String tenant);

    /**
     * What {@code subject} has left of each limit of {@code policy}, without consuming anything: the counters a call of
     * the subject decides on, with the values it is decided by (its plan and run-time limit, for a tenant). Fails
     * with {@link IllegalArgumentException} when the subject owns no counter of the policy (a tenant named for a
     * policy counted per client address) or the counters are split by a parameter whose value the subject does not
     * give ({@link RateLimitSubject#withArgument}).
     */
    Uni<List<RateLimitDecision>> status(RateLimitSubject subject, String policy);

    /** {@link #status(RateLimitSubject, String)} of a tenant. */
    default Uni<List<RateLimitDecision>> status(String tenant, String policy) {
        return status(RateLimitSubject.tenant(tenant), policy);
    }

    /**
     * The units of each limit of {@code policy} that the instances lease out of {@code subject}'s counters and have not
     * given back, by limit name (0: none), fleet-wide: Redis counts them as used ({@link #status}), and the slices that
     * hold them admit calls without asking Redis until their leases end (see {@code quarkus.rate-limit.leases}). At
     * most what the slices still hold: how much of it they spent only they know. Fails as
     * {@link #status(RateLimitSubject, String)} does.
     */
    Uni<Map<String, Long>> leased(RateLimitSubject subject, String policy);

    /**
     * The callers refused most over the last {@code period} (whole minutes, 1 to 60), fleet-wide, the most refused
     * first, at most {@code top} (1 to 1,000) of them: tenants, and the caller addresses of calls counted per address.
     * Every instance reports its refusals every fleet heartbeat ({@code quarkus.rate-limit.fleet.heartbeat}), so the
     * answer is at most a heartbeat behind. Each minute's tally keeps the 1,000 callers refused most that minute, so
     * Redis holds at most 60,000 callers whatever the number refused, and a count is never under a caller's refusals
     * (see {@link RefusedCaller#refusals()}). Fails as {@link #status(RateLimitSubject, String)} does.
     *
     * @throws IllegalArgumentException for a period or a top out of range
     */
    Uni<List<RefusedCaller>> refusedMost(Duration period, int top);

    /**
     * Forgets what {@code subject} consumed of every limit of {@code policy}, on every instance, and emits how many
     * counters held something: 0 when there was nothing to reset (the subject made no call in the current window).
     * Fails as {@link #status(RateLimitSubject, String)} does.
     */
    Uni<Integer> reset(RateLimitSubject subject, String policy);

    /** {@link #reset(RateLimitSubject, String)} of a tenant. */
    default Uni<Integer> reset(String tenant, String policy) {
        return reset(RateLimitSubject.tenant(tenant), policy);
    }

    /**
     * Refuses every limited call of {@code subject} (a tenant, or a client address that calls count under when they
     * have no tenant) with {@code 403 Forbidden} ({@link TenantBlockedException}), whatever way the call comes in
     * ({@code @RateLimited}, {@code @ConcurrencyLimited}, {@link RateLimiter}), on every instance, until
     * {@link #unblock}: an abusive tenant stopped without a redeploy. Tenants blocked for good belong in
     * {@code quarkus.rate-limit.blocked-tenants}.
     */
    Uni<Void> block(RateLimitSubject subject);

    /** {@link #block(RateLimitSubject)} of a tenant. */
    default Uni<Void> block(String tenant) {
        return block(RateLimitSubject.tenant(tenant));
    }

    /** Lifts {@link #block}. */
    Uni<Void> unblock(RateLimitSubject subject);

    /** {@link #unblock(RateLimitSubject)} of a tenant. */
    default Uni<Void> unblock(String tenant) {
        return unblock(RateLimitSubject.tenant(tenant));
    }

    /** The policies (and names of limits without one) this application knows: what the other methods accept. */
    List<String> policies();

    /**
     * Switches the limits of {@code policy} (a policy, or the name of a limit without one), or every limit when
     * {@code policy} is {@code null}, on every instance (at once on this one) and across restarts, until
     * {@link #clearSwitches}: its mode, its rollout percentage (0 to 100) and its failure mode (not for every limit:
     * that is {@code quarkus.rate-limit.failure-mode}). A {@code null} setting stays as it is. Every value is checked
     * before any is written: a bad one changes nothing ({@link IllegalArgumentException}).
     * <p>
     * A limit's own switch wins over its configuration, which wins over the global configuration. The mode switch of
     * every limit ({@code policy} {@code null}) is the kill switch: {@code off} turns every limit off and
     * {@code shadow} puts every enforced limit in shadow mode, whatever a limit's own switch or configuration says,
     * {@code @ConcurrencyLimited} limits included; {@code enforce} there lets each limit's own setting decide.
     */
    Uni<Void> setSwitches(String policy, Mode mode, Integer rolloutPercentage, FailureMode failureMode);

    /** {@link #setSwitches} of the mode alone: {@code shadow} or {@code off} is the kill switch. */
    default Uni<Void> setMode(String policy, Mode mode) {
        return setSwitches(policy, mode, null, null);
    }

    /** Removes the run-time switches of {@code policy} (every limit when {@code null}): configuration applies. */
    Uni<Void> clearSwitches(String policy);

    /**
     * The run-time switches in force on this instance: by policy or name ({@code *} for every limit), each setting
     * ({@code mode}, {@code rolloutPercentage}, {@code failureMode}) with its value (the percentage a number, the
     * modes as the configuration writes them: {@code shadow}, {@code fail-open}), as {@link #setSwitches} and the
     * {@code PUT} of the admin endpoints take them.
     */
    Map<String, Map<String, Object>> switches();
}
