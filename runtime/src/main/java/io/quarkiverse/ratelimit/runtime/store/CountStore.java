package io.quarkiverse.ratelimit.runtime.store;

import java.time.Duration;
import java.util.Collections;
import java.util.List;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.vertx.core.Future;

/**
 * Where the counts of the limits live, and the operations on them: the seam between deciding a call and keeping its
 * counts. Redis's function library is the implementation every application runs ({@code redis/RedisDecisions}); this
 * instance's own counts answer for limits whose failure mode is {@code local} while Redis cannot
 * ({@code resilience/LocalFallback}); the runtime's unit tests run the core on exact in-memory counts
 * ({@code InMemoryCountStore}). Another way to keep counts is another implementation, not an edit of the deciding code.
 * <p>
 * Each operation takes one call's keys (all in one hash slot) and its limits in the same order, and is atomic across
 * them: no other operation on those keys sees it half done. None guards itself: the decision timeout, the circuit
 * breaker and the failure modes wrap every operation alike ({@code resilience/DecisionGuard}).
 */
public interface CountStore {

    /**
     * One decision per limit, in order; the call is recorded in every limit only if every limit not in
     * {@code shadow} allows it (a shadow limit that refuses records nothing, and refuses nothing), and in none
     * otherwise.
     */
    Future<List<RateLimitDecision>> decide(List<String> keys, List<LimitDefinition> limits, ShadowMask shadow);

    /**
     * The call's decisions as this store answers them without a round trip (from what it holds in this instance), or
     * {@code null} when it must ask ({@link #decide}); the same contract as {@link #decide} when it answers.
     */
    default List<RateLimitDecision> decideLocally(List<String> keys, List<LimitDefinition> limits, ShadowMask shadow) {
        return null;
    }

    /**
     * Whether {@link #decideLocally} would admit the call now from what this store holds; takes nothing (a refusal held
     * for the keys does not answer a call this store can admit).
     */
    default boolean holdsUnitsFor(List<String> keys, List<LimitDefinition> limits, ShadowMask shadow) {
        return false;
    }

    /** Gives back each limit's cost (clamped: a limit never holds less than nothing). */
    Future<Void> refund(List<String> keys, List<LimitDefinition> limits);

    /**
     * Settles a reservation: each limit's cost is the difference, real minus reserved, given back when below zero and
     * charged (beyond the limit if need be) when above; emits each limit's state after it.
     */
    Future<List<RateLimitDecision>> settle(List<String> keys, List<LimitDefinition> limits);

    /** Admits no call of the limits for {@code pause} (an upstream's retry time); counting windows are left alone. */
    Future<Void> pause(List<String> keys, List<LimitDefinition> limits, Duration pause);

    /** Deletes the limits' state; emits how many of the keys held some. */
    Future<Integer> reset(List<String> keys);

    /**
     * The units of each key's count leased out to instances and not given back, in order: at most what their slices
     * still hold. Nothing for a store that leases nothing.
     */
    default Future<List<Long>> leased(List<String> keys) {
        return Future.succeededFuture(Collections.nCopies(keys.size(), 0L));
    }
}
