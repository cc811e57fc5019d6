package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;

/**
 * Consecutive-failure circuit breaker. Closed: every call may go to Redis. Open: none may, until the open period ends.
 * Half-open: exactly one call probes; its success closes the breaker, its failure opens it again. The closed path is
 * one volatile read.
 */
public final class CircuitBreaker {

    private final int failureThreshold;
    private final long openNanos;
    private final LongSupplier nanoClock;
    private final Consumer<CircuitBreakerTransition> listener;

    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private final AtomicBoolean probeInFlight = new AtomicBoolean();
    private volatile State state = State.CLOSED;
    private volatile long openedAtNanos;

    public CircuitBreaker(int failureThreshold, Duration openDuration, LongSupplier nanoClock,
            Consumer<CircuitBreakerTransition> listener) {
        this.failureThreshold = failureThreshold;
        this.openNanos = openDuration.toNanos();
        this.nanoClock = nanoClock;
        this.listener = listener;
    }

    /** Whether this call may go to Redis; when it may, it must report {@link #onSuccess} or {@link #onFailure}. */
    public boolean tryAcquirePermission() {
        State current = state;
        if (current == State.CLOSED) {
            return true;
        }
        if (current == State.OPEN) {
            if (nanoClock.getAsLong() - openedAtNanos < openNanos) {
                return false;
            }
            transition(State.OPEN, State.HALF_OPEN, null);
        }
        return probeInFlight.compareAndSet(false, true);
    }

    /**
     * A call that went to Redis succeeded. Only the half-open probe closes an open breaker: a call sent before the
     * breaker opened and answered after leaves it open, so OPEN never skips HALF_OPEN. Writes nothing when nothing
     * changes: this runs for every decision, from every thread.
     */
    public void onSuccess() {
        if (consecutiveFailures.get() != 0) {
            consecutiveFailures.set(0);
        }
        if (state == State.HALF_OPEN) {
            transition(State.HALF_OPEN, State.CLOSED, null);
            probeInFlight.set(false);
        }
    }

    public void onFailure(Throwable cause) {
        State current = state;
        if (current == State.HALF_OPEN) {
            transition(State.HALF_OPEN, State.OPEN, cause);
        } else if (consecutiveFailures.incrementAndGet() >= failureThreshold && current == State.CLOSED) {
            transition(State.CLOSED, State.OPEN, cause);
        }
        probeInFlight.set(false);
    }

    public State state() {
        return state;
    }

    /** How long until Redis is tried again: the rest of the open period, or one second. */
    public Duration retryAfter() {
        if (state == State.OPEN) {
            long remaining = openNanos - (nanoClock.getAsLong() - openedAtNanos);
            if (remaining > 0) {
                return Duration.ofNanos(remaining);
            }
        }
        return Duration.ofSeconds(1);
    }

    /**
     * Moves from {@code from} to {@code to} unless another thread moved first, and tells the listener while still
     * holding the lock: transitions are rare, and told in the order they happened, so an observer sees one chain
     * (told after the lock, a thread closing a half-open breaker could be heard before the one that half-opened it).
     */
    private void transition(State from, State to, Throwable cause) {
        synchronized (this) {
            if (state != from) {
                return;
            }
            if (to == State.OPEN) {
                openedAtNanos = nanoClock.getAsLong();
            }
            if (to == State.CLOSED) {
                consecutiveFailures.set(0);
            }
            state = to;
            listener.accept(new CircuitBreakerTransition(from, to, cause));
        }
    }
}
