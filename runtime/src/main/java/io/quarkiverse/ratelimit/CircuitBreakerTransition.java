package io.quarkiverse.ratelimit;

/**
 * A CDI event fired when the circuit breaker in front of the rate limiter's Redis changes state, in the order the
 * changes happen (each event's {@code from} is the {@code to} of the one before). Synchronous observers run on the
 * thread that saw the change (possibly a Vert.x event loop), while the breaker holds its lock: they must not block.
 *
 * @param from the state before
 * @param to the state now
 * @param cause the failure that opened the breaker, {@code null} otherwise
 */
public record CircuitBreakerTransition(State from, State to, Throwable cause) {

    public enum State {
        /** Decisions go to Redis. */
        CLOSED,
        /** Redis failed repeatedly: no call goes to Redis; limits use their {@link FailureMode}. */
        OPEN,
        /** The open period ended: one call probes Redis; the others still use their failure mode. */
        HALF_OPEN
    }
}
