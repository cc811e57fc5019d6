package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkiverse.ratelimit.runtime.outgoing.UpstreamPauses;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.smallrye.mutiny.Uni;

/**
 * The wait of a call Redis admitted for a later slot ({@code maxWait}): on a timer of the instance's clock
 * ({@link InstanceClock}: Vert.x's), so no thread is held
 * meanwhile (a blocking caller waits on its own thread, for the {@code Uni}). The slot is counted from Redis's decision
 * placed in this instance's clock ({@code RedisClockReadings}), not from when its reply was read. A call goes at its
 * slot, never late and never into a pause:
 * <ul>
 * <li>a timer that fires more than {@code late-slot-tolerance} (or the limit's own {@code lateSlotTolerance}) after the slot (a
 * stalled event loop, a long GC) does
 * not let the call go: it takes the next free slot in Redis instead, within what is left of its {@code maxWait}, so
 * that lateness on one instance never bunches calls at the service the limit protects;</li>
 * <li>a pause an upstream asked for ({@link UpstreamPauses}) wakes the calls waiting on its keys at once, not at their
 * slot: each takes a slot after the pause, or is refused when that lies beyond its {@code maxWait}. A slot Redis gave
 * before it held the pause never goes before the pause's end, however close to it.</li>
 * </ul>
 * A wait given up (the subscriber cancels) gives the slot back at once, so that the calls queued behind it move up. Only
 * calls whose limits may wait come here: the others' decisions are emitted as Redis gives them.
 */
@Singleton
public class SlotWaits {

    private final InstanceClock clock;
    private final UpstreamPauses pauses;
    /** {@code quarkus.rate-limit.late-slot-tolerance}: for limits that set none of their own. */
    private final long defaultToleranceNanos;
    private final AtomicInteger waiting = new AtomicInteger();
    /** The calls waiting now, by the keys of their limits: what a pause wakes. */
    private final ConcurrentMap<String, Set<Waiting>> byKey = new ConcurrentHashMap<>();

    @Inject
    SlotWaits(InstanceClock clock, UpstreamPauses pauses, RateLimitConfig config) {
        this(clock, pauses, config.lateSlotTolerance());
    }

    /** @param lateSlotTolerance {@code quarkus.rate-limit.late-slot-tolerance} */
    SlotWaits(InstanceClock clock, UpstreamPauses pauses, Duration lateSlotTolerance) {
        this.clock = clock;
        this.pauses = pauses;
        this.defaultToleranceNanos = lateSlotTolerance.toNanos();
        pauses.onPause(this::paused);
    }

    /** How many calls of this instance wait for their slot now (Dev UI). */
    public int waiting() {
        return waiting.get();
    }

    /**
     * What {@code first} emits: at once when the call proceeds at once or is refused, after its wait when Redis
     * reserved a later slot for it ({@link CallDecision#slotNanos()}). A wait given up gives the slot back; a call
     * whose limits an upstream paused meanwhile is refused after all, or decided again.
     *
     * @param first decides the call in Redis
     * @param keys the limits' keys: a call whose limits an upstream paused after its decision does not go at its slot
     *        ({@link UpstreamPauses})
     * @param limits the call's limits: how long it may wait in all, from now, and how late it may still go
     * @param requeue decides the call again in Redis, waiting at most the given milliseconds: the next free slot of a
     *        call that would go late, or the first after a pause
     */
    Uni<CallDecision> waited(Supplier<Uni<CallDecision>> first, List<String> keys, List<LimitDefinition> limits,
            LongFunction<Uni<CallDecision>> requeue) {
        long deadline = clock.nanoTime() + WaitingCalls.maxWaitMillis(limits) * 1_000_000;
        long tolerance = WaitingCalls.lateSlotToleranceNanos(limits, defaultToleranceNanos);
        return DirectUni.emitting(emission -> {
            Waiting call = new Waiting(emission, keys, deadline, tolerance, requeue);
            emission.onCancel(call::cancelled);
            call.ask(first);
        });
    }

    /** Whether a slot lies in a pause that lasts beyond {@code now} ({@link UpstreamPauses#pausedUntilNanos}). */
    private static boolean inPause(long slotNanos, long pausedUntilNanos, long now) {
        return pausedUntilNanos - now > 0 && pausedUntilNanos - slotNanos > 0;
    }

    /** Wakes the calls waiting on {@code keys}: an upstream paused them. */
    private void paused(List<String> keys) {
        for (String key : keys) {
            Set<Waiting> calls = byKey.get(key);
            if (calls != null) {
                calls.forEach(Waiting::pauseHeard);
            }
        }
    }

    /** One call: its current decision, its timer while it waits, and what is left of its {@code maxWait}. */
    private final class Waiting {

        private final DirectUni.Emission<CallDecision> emission;
        private final List<String> keys;
        private final long deadlineNanos;
        private final long toleranceNanos;
        private final LongFunction<Uni<CallDecision>> requeue;
        /**
         * Guarded by this: the decision the call waits on, its timer (-1: none), when its slot comes and when the call
         * asked Redis for it (before the request left: a pause Redis held by then lies before the slot).
         */
        private CallDecision decision;
        private long timer = -1;
        private long slotNanos;
        private long askedAtNanos;
        private boolean ended;

        Waiting(DirectUni.Emission<CallDecision> emission, List<String> keys, long deadlineNanos, long toleranceNanos,
                LongFunction<Uni<CallDecision>> requeue) {
            this.emission = emission;
            this.keys = keys;
            this.deadlineNanos = deadlineNanos;
            this.toleranceNanos = toleranceNanos;
            this.requeue = requeue;
        }

        /** Asks Redis for the call's decision, and awaits it. */
        void ask(Supplier<Uni<CallDecision>> decision) {
            long asked = clock.nanoTime();
            Uni<CallDecision> decided;
            try {
                decided = decision.get();
            } catch (RuntimeException e) {
                failed(e);
                return;
            }
            decided.subscribe().with(answer -> decided(answer, asked), this::failed);
        }

        private void decided(CallDecision decided, long asked) {
            long slot = decided.slotNanos();
            if (slot == CallDecision.GOES_AT_ONCE) {
                end(decided);
                return;
            }
            long now = clock.nanoTime();
            synchronized (this) {
                if (ended) {
                    giveBack(decided); // given up while Redis decided
                    return;
                }
                if (now - slot <= toleranceNanos) {
                    decision = decided;
                    slotNanos = slot;
                    askedAtNanos = asked;
                    waiting.incrementAndGet();
                    for (String key : keys) {
                        byKey.computeIfAbsent(key, ignored -> ConcurrentHashMap.newKeySet()).add(this);
                    }
                    // never before the slot: a timer fires at the earliest after its delay
                    timer = clock.setTimer(Math.max(1, (slot - now + 999_999) / 1_000_000), this::slotCame);
                    return;
                }
            }
            again(decided, null); // its slot passed while its answer was on its way: as late as a late timer
        }

        /** The timer fired: the call goes, unless it is late or its slot lies in a pause. */
        private void slotCame() {
            CallDecision current;
            long slot;
            long asked;
            synchronized (this) {
                if (ended || timer < 0) {
                    return;
                }
                timer = -1;
                current = decision;
                slot = slotNanos;
                asked = askedAtNanos;
            }
            stopWaiting();
            long now = clock.nanoTime();
            long pausedUntil = pauses.pausedUntilNanos(keys, now, asked);
            if (inPause(slot, pausedUntil, now)) {
                again(current, Duration.ofNanos(pausedUntil - now));
            } else if (now - slot > toleranceNanos) {
                again(current, null);
            } else {
                end(current);
            }
        }

        /** A pause of one of the call's keys was heard: a call whose slot lies in it does not wait for it. */
        void pauseHeard() {
            CallDecision current;
            long now = clock.nanoTime();
            long pausedUntil;
            synchronized (this) {
                pausedUntil = pauses.pausedUntilNanos(keys, now, askedAtNanos);
                if (ended || timer < 0 || !inPause(slotNanos, pausedUntil, now) || !clock.cancelTimer(timer)) {
                    return;
                }
                timer = -1;
                current = decision;
            }
            stopWaiting();
            again(current, Duration.ofNanos(pausedUntil - now));
        }

        /**
         * Decides the call again, within what is left of its wait: after a pause, Redis's next slot lies after it; a late
         * call's slot has passed unused. A call with nothing left of its wait is refused.
         */
        private void again(CallDecision current, Duration paused) {
            long leftMillis = (deadlineNanos - clock.nanoTime()) / 1_000_000;
            if (leftMillis <= 0 && paused != null) {
                end(current.admitted() ? current.revoked(paused) : current);
                return;
            }
            ask(() -> requeue.apply(Math.max(0, leftMillis)));
        }

        void cancelled() {
            CallDecision held;
            synchronized (this) {
                ended = true;
                if (timer < 0 || !clock.cancelTimer(timer)) {
                    return;
                }
                timer = -1;
                held = decision;
            }
            stopWaiting();
            giveBack(held);
        }

        private void failed(Throwable failure) {
            synchronized (this) {
                ended = true;
            }
            emission.fail(failure);
        }

        private void end(CallDecision decision) {
            synchronized (this) {
                ended = true;
            }
            emission.emit(() -> decision);
        }

        /** Returns a waiting call's slot, its wait given up, so that the calls queued behind it move up. */
        private void giveBack(CallDecision given) {
            given.admission().giveBack().subscribe().with(done -> {
            });
        }

        private void stopWaiting() {
            waiting.decrementAndGet();
            for (String key : keys) {
                byKey.computeIfPresent(key, (ignored, calls) -> {
                    calls.remove(this);
                    return calls.isEmpty() ? null : calls;
                });
            }
        }
    }
}
