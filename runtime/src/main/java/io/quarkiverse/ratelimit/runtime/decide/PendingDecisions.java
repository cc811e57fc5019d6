package io.quarkiverse.ratelimit.runtime.decide;

import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * The decisions waiting for Redis, and when to stop waiting. Redis owes a reply from the moment the oldest pending
 * decision was sent, or from its last reply if that came later; once it has owed one for {@code decision-timeout},
 * every pending decision fails over, however recently it was sent. A decision also fails over once it has itself waited
 * {@code busy-timeout} while Redis answers others (this instance is saturated, not Redis broken). One periodic
 * {@link #sweep()} checks every pending decision, instead of a timer armed per decision; so no call waits more than
 * {@code decision-timeout} plus one sweep interval after Redis falls silent, whatever else was in flight. A sweep that
 * gives up on a silent Redis also calls {@code onSilence} once: the connections may be what hangs, not Redis.
 * <p>
 * A decision joins a queue when sent, and a reply only marks it settled: the sweep drops what was settled since it last
 * ran. One append a decision, no hashing and no removal on the path every decision takes.
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

    /** In sending order; settled ones stay until the next sweep. */
    private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final long timeoutNanos;
    private final long busyTimeoutNanos;
    private final LongSupplier nanoTime;
    private final LongSupplier lastReplyNanos;
    private final Runnable onSilence;

    /**
     * @param lastReplyNanos when Redis last answered any decision
     * @param onSilence called once by a sweep that gave up on decisions because Redis owed a reply too long
     */
    PendingDecisions(long timeoutNanos, long busyTimeoutNanos, LongSupplier nanoTime, LongSupplier lastReplyNanos,
            Runnable onSilence) {
        this.timeoutNanos = timeoutNanos;
        this.busyTimeoutNanos = busyTimeoutNanos;
        this.nanoTime = nanoTime;
        this.lastReplyNanos = lastReplyNanos;
        this.onSilence = onSilence;
    }

    /**
     * The sweep interval, what a call may wait beyond the timeout: a hundredth of the timeout, between 5 and 20 ms. A
     * sweep with nothing pending costs one check.
     */
    static long sweepIntervalMillis(long timeoutMillis) {
        return Math.max(5, Math.min(20, timeoutMillis / 100));
    }

    /** A decision about to be sent; {@code giveUp} is called (once) if the sweep settles it. */
    Pending start(BiConsumer<Pending, Throwable> giveUp) {
        Pending decision = new Pending(nanoTime.getAsLong(), giveUp);
        pending.add(decision);
        return decision;
    }

    /** Gives up on the decisions that have waited too long, and drops the settled ones. */
    void sweep() {
        long oldestStart = Long.MAX_VALUE;
        for (Iterator<Pending> decisions = pending.iterator(); decisions.hasNext();) {
            Pending decision = decisions.next();
            if (decision.get()) {
                decisions.remove();
            } else {
                oldestStart = Math.min(oldestStart, decision.startNanos);
            }
        }
        if (oldestStart == Long.MAX_VALUE) {
            return; // nothing waits
        }
        long now = nanoTime.getAsLong();
        boolean silent = now - Math.max(lastReplyNanos.getAsLong(), oldestStart) >= timeoutNanos;
        boolean gaveUpOnSilence = false;
        for (Iterator<Pending> decisions = pending.iterator(); decisions.hasNext();) {
            Pending decision = decisions.next();
            if ((silent || now - decision.startNanos >= busyTimeoutNanos) && decision.settle()) {
                decisions.remove();
                gaveUpOnSilence |= silent;
                decision.giveUp.accept(decision, new GivenUp(silent
                        ? "Redis answered nothing for " + millis(timeoutNanos) + " ms"
                        : "Redis did not decide within " + millis(busyTimeoutNanos) + " ms while busy"));
            }
        }
        if (gaveUpOnSilence) {
            onSilence.run();
        }
    }

    /** How many decisions wait for Redis (not settled). */
    int size() {
        int waiting = 0;
        for (Pending decision : pending) {
            if (!decision.get()) {
                waiting++;
            }
        }
        return waiting;
    }

    /**
     * Why a decision was given up. Without a stack trace: it would be the sweep's, the same for every decision and of
     * no use, and a sweep may give up hundreds at once, each of whose calls is waiting for its answer meanwhile.
     */
    static final class GivenUp extends TimeoutException {

        GivenUp(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
