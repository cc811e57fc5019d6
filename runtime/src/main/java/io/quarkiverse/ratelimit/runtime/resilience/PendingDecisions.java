package io.quarkiverse.ratelimit.runtime.resilience;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * The decisions waiting for Redis, and when to stop waiting. Redis owes a reply from the moment the oldest pending
 * decision was sent, or from its last reply if that came later; once it has owed one for {@code decision-timeout},
 * every pending decision fails over, however recently it was sent. A decision also fails over once it has itself waited
 * {@code busy-timeout} while Redis answers others (this instance is saturated, not Redis broken). One periodic
 * {@link #sweep()} checks the pending decisions, instead of a timer armed per decision; so no call waits more than
 * {@code decision-timeout} plus one sweep interval after Redis falls silent, whatever else was in flight. A sweep that
 * gives up on a silent Redis also calls {@code onSilence} once: the connections may be what hangs, not Redis.
 * <p>
 * This is on every decision's path, so a decision costs one append to a queue of its thread's stripe, under that
 * stripe's lock (threads share a stripe only when their ids collide), and a reply only marks it settled.
 * A stripe's queue is in sending order: the sweep drops the settled decisions at its head, and reads on only while the
 * decisions are old enough to give up on; every decision once, not every decision every sweep.
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

    /**
     * How many decisions a stripe holds behind an unsettled head before the sweep drops the settled ones among them: in
     * normal operation a stripe holds about one round trip of decisions after a sweep.
     */
    private static final int COMPACT_ABOVE = 4096;

    /** Enough that the event loops and a few workers rarely share one; a power of two. */
    private static final int STRIPES = Integer.highestOneBit(Math.max(2, Runtime.getRuntime().availableProcessors()) * 4);

    /** The decisions sent from the threads of one stripe, oldest first; settled ones stay until a sweep reaches them. */
    private final ArrayDeque<Pending>[] stripes;
    private final long timeoutNanos;
    private final long busyTimeoutNanos;
    private final LongSupplier nanoTime;
    private final LongSupplier lastReplyNanos;
    private final Runnable onSilence;

    /**
     * @param lastReplyNanos when Redis last answered any decision
     * @param onSilence called once by a sweep that gave up on decisions because Redis owed a reply too long
     */
    @SuppressWarnings("unchecked")
    PendingDecisions(long timeoutNanos, long busyTimeoutNanos, LongSupplier nanoTime, LongSupplier lastReplyNanos,
            Runnable onSilence) {
        this.timeoutNanos = timeoutNanos;
        this.busyTimeoutNanos = busyTimeoutNanos;
        this.nanoTime = nanoTime;
        this.lastReplyNanos = lastReplyNanos;
        this.onSilence = onSilence;
        this.stripes = new ArrayDeque[STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ArrayDeque<>();
        }
    }

    /**
     * The sweep interval, what a call may wait beyond the timeout: a hundredth of the timeout, between 5 and 20 ms. A
     * sweep with nothing pending costs one check per stripe.
     */
    static long sweepIntervalMillis(long timeoutMillis) {
        return Math.max(5, Math.min(20, timeoutMillis / 100));
    }

    /** A decision about to be sent; {@code giveUp} is called (once) if the sweep settles it. */
    Pending start(BiConsumer<Pending, Throwable> giveUp) {
        Pending decision = new Pending(nanoTime.getAsLong(), giveUp);
        ArrayDeque<Pending> stripe = stripes[(int) Thread.currentThread().getId() & (STRIPES - 1)];
        synchronized (stripe) {
            stripe.addLast(decision);
        }
        return decision;
    }

    /** Gives up on the decisions that have waited too long, and drops the settled ones. */
    void sweep() {
        long oldestStart = Long.MAX_VALUE;
        for (ArrayDeque<Pending> stripe : stripes) {
            synchronized (stripe) {
                Pending oldest = dropSettled(stripe);
                if (oldest != null) {
                    oldestStart = Math.min(oldestStart, oldest.startNanos);
                }
            }
        }
        if (oldestStart == Long.MAX_VALUE) {
            return; // nothing waits
        }
        long now = nanoTime.getAsLong();
        boolean silent = now - Math.max(lastReplyNanos.getAsLong(), oldestStart) >= timeoutNanos;
        // when Redis is silent every pending decision goes; else those sent before the cutoff
        long cutoff = now - busyTimeoutNanos;
        boolean gaveUp = false;
        for (ArrayDeque<Pending> stripe : stripes) {
            for (Pending decision : expired(stripe, cutoff, silent)) {
                // outside the stripe's lock: it runs the caller's code
                decision.giveUp.accept(decision, new GivenUp(silent
                        ? "Redis answered nothing for " + millis(timeoutNanos) + " ms"
                        : "Redis did not decide within " + millis(busyTimeoutNanos) + " ms while busy"));
                gaveUp = true;
            }
        }
        if (silent && gaveUp) {
            onSilence.run();
        }
    }

    /**
     * Drops the settled decisions at the head of {@code stripe}, and those behind an unsettled head once they are many:
     * a decision Redis leaves unanswered while it answers the others would otherwise keep every decision sent after it
     * on its stripe, up to {@code busy-timeout} of traffic. The oldest unsettled decision, or {@code null}.
     */
    private static Pending dropSettled(ArrayDeque<Pending> stripe) {
        Pending head = stripe.peekFirst();
        while (head != null && head.get()) {
            stripe.pollFirst();
            head = stripe.peekFirst();
        }
        if (head != null && stripe.size() > COMPACT_ABOVE) {
            stripe.removeIf(Pending::get); // keeps the order: the head stays the oldest
        }
        return head;
    }

    /**
     * Takes the decisions of {@code stripe} sent before {@code cutoff} (all when {@code all}) out of it, settled by
     * this sweep: those it must give up on. Its decisions are in sending order (by nanoseconds taken on several threads
     * just before the lock: a decision a few microseconds out of order waits for the next sweep), so it stops at the
     * first one sent after the cutoff.
     */
    private static List<Pending> expired(ArrayDeque<Pending> stripe, long cutoff, boolean all) {
        List<Pending> expired = List.of();
        synchronized (stripe) {
            for (Pending head = stripe.peekFirst(); head != null && (all || head.startNanos - cutoff <= 0); head = stripe
                    .peekFirst()) {
                stripe.pollFirst();
                if (head.settle()) {
                    if (expired.isEmpty()) {
                        expired = new ArrayList<>();
                    }
                    expired.add(head);
                }
            }
        }
        return expired;
    }

    /** How many decisions the stripes hold, settled or not (tests). */
    int held() {
        int held = 0;
        for (ArrayDeque<Pending> stripe : stripes) {
            synchronized (stripe) {
                held += stripe.size();
            }
        }
        return held;
    }

    /** How many decisions wait for Redis (not settled). */
    int size() {
        int waiting = 0;
        for (ArrayDeque<Pending> stripe : stripes) {
            synchronized (stripe) {
                for (Pending decision : stripe) {
                    if (!decision.get()) {
                        waiting++;
                    }
                }
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
