package io.quarkiverse.ratelimit;

import java.util.List;

import io.smallrye.mutiny.Uni;

/**
 * Units a call reserved of its limits before it knew its real cost ({@link RateLimiter#reserve}), all or nothing: the
 * tokens an LLM answer will use, the bytes of a download. When the call ends, {@link #settle} replaces the estimate by
 * the real cost on every limit, in one atomic call: the difference is given back, or the overrun charged, beyond the
 * limit if need be, as debt the limit pays back before it admits again. {@link #cancel} gives everything back (the call
 * did not happen). A reservation that is never settled (the instance stopped, the call hung) counts at its estimate: it
 * was charged when it was made; a settlement that comes later than {@code quarkus.rate-limit.reservation-lease} after
 * it changes nothing. Settled or cancelled once; thread-safe.
 */
public interface Reservation {

    /** Whether every limit had the reserved units: only then may the call go. */
    boolean admitted();

    /**
     * Each limit's decision when the units were reserved, in the order of the charges: what is left, the retry time of
     * a refusal (the headers of the call).
     */
    List<RateLimitDecision> decisions();

    /**
     * Settles the estimated charges at {@code actualUnits} (the fixed ones are left as they are); emits each limit's
     * state after it, in the order of the charges: what is left, 0 while the limit is in debt. A refused reservation, or
     * one settled later than its lease, changes nothing and emits its {@link #decisions()}.
     *
     * Settling is the one way a reservation learns its real cost, so a settlement that cannot be charged says so:
     * {@link #settledLate()} tells one that came after the lease, which is also logged and counted
     * ({@code rate_limit.reservation.late_settlements}).
     *
     * @param actualUnits the call's real cost, 0 to {@link LimitRules#MAX_COST}; any such cost is charged in full
     * @throws IllegalArgumentException when {@code actualUnits} is negative or above {@link LimitRules#MAX_COST} (a
     *         misread cost, most likely): nothing is charged, and the reservation can still be settled
     * @throws IllegalStateException (the {@code Uni}'s failure) when it was settled or cancelled before
     */
    Uni<List<RateLimitDecision>> settle(long actualUnits);

    /**
     * Whether {@link #settle} came later than {@code quarkus.rate-limit.reservation-lease} after the reservation, and so
     * changed nothing: the call counts at its estimate. {@code false} before a settlement and after one in time.
     */
    boolean settledLate();

    /** {@link #settle}, waiting on the calling thread (never on an event loop). */
    default List<RateLimitDecision> settleAndAwait(long actualUnits) {
        return settle(actualUnits).await().indefinitely();
    }

    /** Gives back every unit reserved, the fixed ones too: the call did not happen. */
    Uni<Void> cancel();

    /** {@link #cancel}, waiting on the calling thread (never on an event loop). */
    default void cancelAndAwait() {
        cancel().await().indefinitely();
    }
}
