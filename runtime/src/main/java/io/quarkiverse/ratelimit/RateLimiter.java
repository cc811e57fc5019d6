package io.quarkiverse.ratelimit;

import java.util.List;

import io.smallrye.mutiny.Uni;

/**
 * Rate limiting from code, for what is not an annotated method (an e-mail quota, a Kafka consumer): inject it. The
 * decisions are the same atomic scripts on the same Redis as {@link RateLimited}, with the same failure modes.
 * <p>
 * Tenants are any string (escaped, and hashed when long, before they reach a Redis key). Reactive methods never
 * block; the {@code AndAwait} variants must not be called on an event-loop thread.
 * <p>
 * Every method that takes units or a slot ({@code tryAcquire}, {@code tryAcquireAll}, {@code acquire},
 * {@code acquireAll}, {@code reserve}, {@code acquireSlot}, their blocking forms, and {@code status}) crosses the gate every
 * limited call
 * crosses: for a blocked tenant ({@code quarkus.rate-limit.blocked-tenants}, {@link RateLimitAdmin#block}) the
 * {@code Uni} fails with {@link TenantBlockedException} (the blocking forms throw it), before Redis; an exempt tenant
 * ({@code quarkus.rate-limit.exempt-tenants}) is admitted with its whole limit left. The global mode and the kill switch
 * apply too: a limit switched off admits with its whole limit left, one in shadow mode that refuses admits with nothing
 * left. {@link #refund} and {@link #reset} are not calls, and are not gated.
 */
public interface RateLimiter {

    /** Takes one unit of {@code limit} for {@code tenant} if it has one left; consumes nothing when refused. */
    default Uni<RateLimitDecision> tryAcquire(RateLimit limit, String tenant) {
        return tryAcquire(limit, tenant, 1);
    }

    /**
     * Takes {@code cost} units if that many are left; consumes nothing when refused. A cost above what the limit holds
     * (its burst, else the limit) is refused with no retry time ({@link RateLimitDecision#retryAfter()} {@code null}: it
     * never fits), as {@link #acquire} and {@link #reserve} refuse it.
     *
     * @throws IllegalArgumentException when {@code cost} is negative
     */
    Uni<RateLimitDecision> tryAcquire(RateLimit limit, String tenant, long cost);

    /**
     * Takes one unit of every limit, all or nothing in one atomic decision: if any refuses, none is consumed. One
     * decision per limit, in order.
     */
    Uni<List<RateLimitDecision>> tryAcquireAll(List<RateLimit> limits, String tenant);

    /**
     * Takes one unit of {@code limit} for {@code tenant}, waiting up to the limit's {@link RateLimit#maxWait()} for
     * one: when none is left now but one comes within that time, Redis reserves that later slot for the call (first
     * come, first served across every instance) and the {@code Uni} emits the admitting decision when the slot comes
     * (on a timer: no thread waits). When the wait would be longer it reserves nothing and emits the refusal at once.
     * Cancelling the {@code Uni} while it waits gives the slot back. For the calls of a client to an API with a quota
     * (a carrier's 5 per second): send the call when the {@code Uni} emits an admitting decision.
     */
    default Uni<RateLimitDecision> acquire(RateLimit limit, String tenant) {
        return acquire(limit, tenant, 1);
    }

    /** {@link #acquire(RateLimit, String)} for {@code cost} units. */
    Uni<RateLimitDecision> acquire(RateLimit limit, String tenant, long cost);

    /**
     * {@link #acquire(RateLimit, String)} for one unit of every limit (for example a quota of 5 per second, 1,000 per
     * minute and 50,000 per day), all or nothing in one atomic decision: the call waits for the earliest slot every limit
     * admits, up to the longest {@code maxWait} of the limits. Every limit's {@link RateLimit#maxWait()} must be set or
     * its algorithm must be {@link io.quarkiverse.ratelimit.Algorithm#TOKEN_BUCKET} or
     * {@link io.quarkiverse.ratelimit.Algorithm#GCRA}, which hold a waiting call's later slot.
     */
    Uni<List<RateLimitDecision>> acquireAll(List<RateLimit> limits, String tenant);

    /** Blocking {@link #acquire(RateLimit, String)}: the calling thread waits; never on an event-loop thread. */
    default RateLimitDecision acquireAndAwait(RateLimit limit, String tenant) {
        return acquire(limit, tenant).await().indefinitely();
    }

    /** Blocking {@link #tryAcquire(RateLimit, String)}. */
    default RateLimitDecision tryAcquireAndAwait(RateLimit limit, String tenant) {
        return tryAcquire(limit, tenant).await().indefinitely();
    }

    /** What is left for {@code tenant}, without consuming anything. */
    default Uni<RateLimitDecision> status(RateLimit limit, String tenant) {
        return tryAcquire(limit, tenant, 0);
    }

    /**
     * {@code tenant}'s own limits, for a caller that wants to see them (a usage endpoint, a dashboard): every per-tenant
     * limit of the application's annotations and policies that is not split by a parameter, with the values and mode
     * its calls are decided by (its plan, its run-time limit, the switches), what is left and when it resets, read
     * without counting against any of them. A limit switched off for the tenant is not listed, nor limits made in code
     * ({@link #status} reads one). Fails with {@link RateLimiterUnavailableException} while Redis does not answer: no
     * failure mode claims a state nobody read.
     */
    Uni<List<RateLimitUsage>> usage(String tenant);

    /** Blocking {@link #usage(String)}. */
    default List<RateLimitUsage> usageAndAwait(String tenant) {
        return usage(tenant).await().indefinitely();
    }

    /**
     * Reserves an estimated cost of {@code limit} for a call whose real cost is known only when it ends (the tokens of
     * an LLM answer); settle it then ({@link Reservation#settle}). Refused, like {@link #tryAcquire}, when the estimate
     * does not fit: it never waits.
     */
    default Uni<Reservation> reserve(RateLimit limit, String tenant, long estimate) {
        return reserve(List.of(Charge.estimated(limit, estimate)), tenant);
    }

    /**
     * Reserves what a call takes of each limit (estimates and fixed units, {@link Charge}), all or nothing in one atomic
     * call; settle it when the call ends ({@link Reservation#settle}), cancel it when the call does not happen.
     */
    Uni<Reservation> reserve(List<Charge> charges, String tenant);

    /** {@link #reserve(RateLimit, String, long)}, waiting on the calling thread (never on an event loop). */
    default Reservation reserveAndAwait(RateLimit limit, String tenant, long estimate) {
        return reserve(limit, tenant, estimate).await().indefinitely();
    }

    /** {@link #reserve(List, String)}, waiting on the calling thread (never on an event loop). */
    default Reservation reserveAndAwait(List<Charge> charges, String tenant) {
        return reserve(charges, tenant).await().indefinitely();
    }

    /**
     * Gives back {@code cost} units of {@code limit} that an admitted call consumed, for a call that failed and should
     * not count. Atomic; never leaves a count below zero or a bucket above its capacity.
     */
    Uni<Void> refund(RateLimit limit, String tenant, long cost);

    /**
     * Takes one of {@code limit}'s slots for {@code tenant}, or fails with {@link ConcurrencyLimitExceededException}
     * when all are in use. Release the slot when the work ends, also when it fails; a slot that is never released
     * (a crash) is free again after the lease.
     */
    Uni<ConcurrencySlot> acquireSlot(ConcurrencyLimit limit, String tenant);

    /** Forgets what {@code tenant} has consumed of {@code limit}: the full limit is available again. */
    Uni<Void> reset(RateLimit limit, String tenant);

    // The blocking forms of the rest: each waits on the calling thread, never on an event loop.

    /** Blocking {@link #tryAcquire(RateLimit, String, long)}. */
    default RateLimitDecision tryAcquireAndAwait(RateLimit limit, String tenant, long cost) {
        return tryAcquire(limit, tenant, cost).await().indefinitely();
    }

    /** Blocking {@link #tryAcquireAll(List, String)}. */
    default List<RateLimitDecision> tryAcquireAllAndAwait(List<RateLimit> limits, String tenant) {
        return tryAcquireAll(limits, tenant).await().indefinitely();
    }

    /** Blocking {@link #acquire(RateLimit, String, long)}: the calling thread waits for the slot too. */
    default RateLimitDecision acquireAndAwait(RateLimit limit, String tenant, long cost) {
        return acquire(limit, tenant, cost).await().indefinitely();
    }

    /** Blocking {@link #acquireAll(List, String)}: the calling thread waits for the slot too. */
    default List<RateLimitDecision> acquireAllAndAwait(List<RateLimit> limits, String tenant) {
        return acquireAll(limits, tenant).await().indefinitely();
    }

    /** Blocking {@link #status(RateLimit, String)}. */
    default RateLimitDecision statusAndAwait(RateLimit limit, String tenant) {
        return status(limit, tenant).await().indefinitely();
    }

    /** Blocking {@link #refund(RateLimit, String, long)}. */
    default void refundAndAwait(RateLimit limit, String tenant, long cost) {
        refund(limit, tenant, cost).await().indefinitely();
    }

    /** Blocking {@link #acquireSlot(ConcurrencyLimit, String)}. */
    default ConcurrencySlot acquireSlotAndAwait(ConcurrencyLimit limit, String tenant) {
        return acquireSlot(limit, tenant).await().indefinitely();
    }

    /** Blocking {@link #reset(RateLimit, String)}. */
    default void resetAndAwait(RateLimit limit, String tenant) {
        reset(limit, tenant).await().indefinitely();
    }
}
