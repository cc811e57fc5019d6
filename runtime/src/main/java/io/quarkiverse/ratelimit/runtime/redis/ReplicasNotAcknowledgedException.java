package io.quarkiverse.ratelimit.runtime.redis;

/**
 * A durable decision's write was not acknowledged by enough replicas in time ({@code WAIT}): Redis decided, but a
 * failover could lose the count, so the decision is not trusted and the limit's failure mode decides instead.
 */
public final class ReplicasNotAcknowledgedException extends RuntimeException {

    public ReplicasNotAcknowledgedException(int acknowledged, int required, long timeoutMillis) {
        super(acknowledged + " of " + required + " replicas acknowledged the decision's write within " + timeoutMillis
                + " ms (quarkus.rate-limit.durable)", null, false, false);
    }
}
