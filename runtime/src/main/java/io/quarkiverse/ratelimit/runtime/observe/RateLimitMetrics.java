package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.smallrye.mutiny.Uni;

/**
 * What the decision path tells the outside about itself. The deployment registers {@link MicrometerRateLimitMetrics}
 * when the application has quarkus-micrometer, {@link NoRateLimitMetrics} otherwise: nothing on the decision path
 * imports Micrometer.
 */
public interface RateLimitMetrics {

    /**
     * One decision per limit of one call.
     *
     * @param shadow the limits in shadow mode
     * @param tenant the tenant's id, {@code null} when the limit has none (global or per client address)
     */
    void decided(List<RateLimitDecision> decisions, DecidedBy by, ShadowMask shadow, String tenant);

    /** One limit's decision, {@code shadow} when the limit is in shadow mode. */
    void decided(RateLimitDecision decision, DecidedBy by, boolean shadow, String tenant);

    /** A call refused because a fail-closed limit could not be decided: every limit of the call counts as refused. */
    void unavailable(List<LimitDefinition> limits, String tenant);

    /** A call to Redis that ended after {@code nanos}. */
    void redisCall(RedisOperation operation, RedisOutcome outcome, long nanos);

    /** A NOSCRIPT reply recovered by sending the script again. */
    void scriptReloaded();

    /** A concurrency lease refused because the tenant's limit was in flight. */
    void concurrencyRejected(String limit);

    /** A limit's use reached a threshold (a {@code QuotaThresholdReached} event), once across the fleet. */
    default void thresholdReached(String limit, int percent) {
    }

    /**
     * The decision of a call that may wait for a later slot, taken by Redis: its wait when admitted (0: at once), or a
     * refusal because its slot lay further ahead than it may wait.
     */
    default void waitDecided(List<RateLimitDecision> decisions) {
    }

    /**
     * Who this instance refused in its last heartbeat, read when the registry is scraped: how many distinct callers, and
     * the share of the refusals the most refused of them took. Nobody is named: a tag per caller would grow without
     * bound (the admin's {@code refusedMost} names them).
     */
    default void refusedCallers(IntSupplier callers, DoubleSupplier topShare) {
    }

    /** An outgoing call's upstream answered 429 or 503 with a retry time: its limits are paused fleet-wide. */
    default void upstreamPaused(List<LimitDefinition> limits) {
    }

    /**
     * Where an adaptive limit's learned value comes from (the lowest of its keys on this instance; the configured limit
     * while none learned less).
     */
    default void adaptiveLimit(String limit, DoubleSupplier learned) {
    }

    /**
     * A reservation of one limit was settled: it had reserved {@code reserved} units (an estimate) and cost
     * {@code settled}.
     */
    default void settled(String limit, long reserved, long settled) {
    }

    /** A reservation of one limit was settled after its lease, and the settlement changed nothing. */
    default void settledLate(String limit) {
    }

    /** Where the circuit state comes from (the worst of the breakers: one per cluster master). */
    default void circuitStateFrom(Supplier<CircuitBreakerTransition.State> state) {
    }

    /** {@code call}, timed from subscription to its item or failure. */
    default <T> Uni<T> timed(RedisOperation operation, Uni<T> call) {
        return Uni.createFrom().deferred(() -> {
            long start = System.nanoTime();
            return call.onItemOrFailure()
                    .invoke((item, failure) -> redisCall(operation, RedisOutcome.of(failure), System.nanoTime() - start));
        });
    }
}
