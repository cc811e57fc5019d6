package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.Reservation;
import io.smallrye.mutiny.Uni;

/**
 * A reservation as {@code RateLimiter.reserve} made it: the call's decision (its admission holds the keys and the
 * reserved units) and which limits were charged an estimate. Settled or cancelled once, within its lease; after the
 * lease it stands at its estimate.
 */
final class SettlingReservation implements Reservation {

    private final CallDecision decision;
    private final List<RateLimitDecision> decisions;
    private final Set<String> estimated;
    private final long leaseEndNanos;
    private final AtomicBoolean ended = new AtomicBoolean();

    /**
     * @param decisions each limit's decision, in the order of the charges
     * @param estimated the names of the limits charged an estimate
     */
    SettlingReservation(CallDecision decision, List<RateLimitDecision> decisions, Set<String> estimated,
            long leaseEndNanos) {
        this.decision = decision;
        this.decisions = decisions;
        this.estimated = estimated;
        this.leaseEndNanos = leaseEndNanos;
    }

    @Override
    public boolean admitted() {
        return decision.admitted();
    }

    @Override
    public List<RateLimitDecision> decisions() {
        return decisions;
    }

    @Override
    public Uni<List<RateLimitDecision>> settle(long actualUnits) {
        if (actualUnits < 0) {
            throw new IllegalArgumentException("A call's real cost is 0 or more, not " + actualUnits);
        }
        return Uni.createFrom().deferred(() -> {
            if (!ended.compareAndSet(false, true)) {
                return Uni.createFrom().failure(new IllegalStateException("This reservation was settled or cancelled"));
            }
            if (!admitted() || System.nanoTime() - leaseEndNanos > 0) {
                return Uni.createFrom().item(decisions);
            }
            return decision.admission().settle(limit -> estimated.contains(limit.getName()) ? actualUnits : null)
                    .map(after -> {
                        List<RateLimitDecision> settled = new ArrayList<>(decisions.size());
                        for (RateLimitDecision reserved : decisions) {
                            settled.add(after.getOrDefault(reserved.limitName(), reserved));
                        }
                        return settled;
                    });
        });
    }

    @Override
    public Uni<Void> cancel() {
        return Uni.createFrom().deferred(() -> {
            if (!ended.compareAndSet(false, true)) {
                return Uni.createFrom().failure(new IllegalStateException("This reservation was settled or cancelled"));
            }
            return admitted() ? decision.admission().giveBack() : Uni.createFrom().voidItem();
        });
    }

    @Override
    public String toString() {
        return (admitted() ? "reservation of " : "refused reservation of ") + decisions;
    }
}
