package io.quarkiverse.ratelimit;

/**
 * A CDI event fired when a circuit breaker in front of the rate limiter's Redis changes state, in the order the changes
 * happen (for one {@code node}, each event's {@code from} is the {@code to} of the one before). Outside a cluster there
 * is one breaker; in a cluster there is one per master, so that a failing master sends only its own slots' decisions to
 * their failure mode. Synchronous observers run on the thread that saw the change (possibly a Vert.x event loop),
 * while the breaker holds its lock: they must not block.
 *
 * @param from the state before
 * @param to the state now
 * @param cause the failure that opened the breaker, {@code null} otherwise
 * @param node the cluster master ({@code host:port}) whose breaker changed; {@code null} outside a cluster
 */
public record CircuitBreakerTransition(State from, State to, Throwable cause, String node) {

    /** A transition of the one breaker outside a cluster. */
    public CircuitBreakerTransition(State from, State to, Throwable cause) {
        this(from, to, cause, null);
    }

    /** The same transition, of {@code node}'s breaker. */
    public CircuitBreakerTransition of(String node) {
        return new CircuitBreakerTransition(from, to, cause, node);
    }

    public enum State {
        /** Decisions go to Redis. */
        CLOSED,
        /** Redis failed repeatedly: no call goes to Redis; limits use their {@link FailureMode}. */
        OPEN,
        /** The open period ended: one call probes Redis; the others still use their failure mode. */
        HALF_OPEN
    }
}
