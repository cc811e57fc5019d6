package io.quarkiverse.ratelimit.runtime.decide;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * The decisions waiting for Redis, and when to stop waiting: a decision fails over once it has waited
 * {@code decision-timeout} and Redis has also answered nothing for that long, or once it has waited
 * {@code busy-timeout} even though Redis answers (this instance is saturated, not Redis broken). One periodic
 * {@link #sweep()} checks every pending decision, instead of a timer armed per decision; so no call waits more than
 * {@code decision-timeout} plus one sweep interval after Redis falls silent.
 */
final class PendingDecisions {

    /** One decision in flight; whoever settles it first (the reply or the sweep) wins. */
    static final class Pending extends AtomicBoolean {

        final long startNanos;
        final BiConsumer<Pending, Throwable> giveUp;

        Pending(long startNanos, BiConsumer<Pending, Throwable> giveUp) {
            this.startNanos = startNanos;
            this.giveUp = giveUp;
        }

        /** Whether this call is the one that settles it. */
        boolean settle() {
            return compareAndSet(false, true);
        }
    }

    private final Set<Pending> pending = ConcurrentHashMap.newKeySet();
    private final long timeoutNanos;
    private final long busyTimeoutNanos;
    private final LongSupplier nanoTime;
    private final LongSupplier lastReplyNanos;

    /** @param lastReplyNanos when Redis last answered any decision */
    PendingDecisions(long timeoutNanos, long busyTimeoutNanos, LongSupplier nanoTime, LongSupplier lastReplyNanos) {
        this.timeoutNanos = timeoutNanos;
        this.busyTimeoutNanos = busyTimeoutNanos;
        this.nanoTime = nanoTime;
        this.lastReplyNanos = lastReplyNanos;
    }

    /** The sweep interval: a twentieth of the timeout, between 10 and 100 ms. */
    static long sweepIntervalMillis(long timeoutMillis) {
        return Math.max(10, Math.min(100, timeoutMillis / 20));
    }

    /** A decision about to be sent; {@code giveUp} is called (once) if the sweep settles it. */
    Pending start(BiConsumer<Pending, Throwable> giveUp) {
        Pending decision = new Pending(nanoTime.getAsLong(), giveUp);
        pending.add(decision);
        return decision;
    }

    /** The decision is settled (answered or given up): it no longer waits. */
    void done(Pending decision) {
        pending.remove(decision);
    }

    /** Gives up on the decisions that have waited too long. */
    void sweep() {
        if (pending.isEmpty()) {
            return;
        }
        long now = nanoTime.getAsLong();
        boolean silent = now - lastReplyNanos.getAsLong() >= timeoutNanos;
        for (Pending decision : pending) {
            long waited = now - decision.startNanos;
            if (waited >= timeoutNanos && (silent || waited >= busyTimeoutNanos) && decision.settle()) {
                pending.remove(decision);
                decision.giveUp.accept(decision, new TimeoutException(silent
                        ? "Redis answered nothing for " + millis(timeoutNanos) + " ms"
                        : "Redis did not decide within " + millis(busyTimeoutNanos) + " ms while busy"));
            }
        }
    }

    int size() {
        return pending.size();
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
