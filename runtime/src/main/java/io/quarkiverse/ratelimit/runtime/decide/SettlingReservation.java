package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.quarkiverse.ratelimit.LimitRules;
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
    /** The instance's time ({@code ScriptClock.nanoTime}), which the lease end is on. */
    private final LongSupplier nanoTime;
    private final AtomicBoolean ended = new AtomicBoolean();
    /** Told the reservation's decisions when a settlement comes after the lease (a log line, a metric). */
    private final Consumer<List<RateLimitDecision>> lateSettlements;
    private volatile boolean settledLate;

    /**
     * @param decisions each limit's decision, in the order of the charges
     * @param estimated the names of the limits charged an estimate
     */
    SettlingReservation(CallDecision decision, List<RateLimitDecision> decisions, Set<String> estimated,
            long leaseEndNanos, LongSupplier nanoTime, Consumer<List<RateLimitDecision>> lateSettlements) {
        this.nanoTime = nanoTime;
        this.lateSettlements = lateSettlements;
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
        String violation = LimitRules.settledCost(actualUnits);
        if (violation != null) {
            throw new IllegalArgumentException("This reservation cannot be settled: " + violation);
        }
        return Uni.createFrom().deferred(() -> {
            if (!ended.compareAndSet(false, true)) {
                return Uni.createFrom().failure(new IllegalStateException("This reservation was settled or cancelled"));
            }
            if (!admitted()) {
                return Uni.createFrom().item(decisions);
            }
            if (nanoTime.getAsLong() - leaseEndNanos > 0) {
                settledLate = true;
                lateSettlements.accept(decisions);
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
    public boolean settledLate() {
        return settledLate;
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
