package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.observe.DecidedBy;
import io.quarkiverse.ratelimit.runtime.observe.DecidedCall;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObservers;
import io.quarkiverse.ratelimit.runtime.observe.DecisionTracing;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RedisOperation;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationListener;
import io.quarkiverse.ratelimit.runtime.store.CountStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;

/**
 * The decisions of one call's limits, and what gives their units back: a refusal this instance holds answers at once
 * ({@link RefusalCache}), and so does a slice of the limit this instance leased ({@link CountStore#decideLocally});
 * otherwise the counts decide ({@link CountStore}: Redis), on the guarded path
 * ({@link GuardedRedis}: timeout and circuit breaker), and each limit's failure mode when they cannot
 * ({@link FailureModes}). Every operation on the counts (decide, refund, settle, pause, reset, an operator's look)
 * crosses the same guard. Every decision is told to the observers here ({@link DecisionObservers}: metrics, traces,
 * thresholds, shadow-mode logging), since only here is it known what decided it.
 */
@Singleton
public class DecisionGuard implements GuardedDecisions {

    private final CountStore store;
    private final GuardedRedis guarded;
    private final FailureModes failureModes;
    private final RateLimitMetrics metrics;
    private final DecisionTracing tracing;
    private final DecisionObservers observers;
    /** The refusal cache's time, and when a decision was sent by it. */
    private final InstanceClock clock;
    private final LongAdder cachedRefusals = new LongAdder();
    /** {@code null} when refusals are not cached ({@code refusal-cache.enabled=false}). */
    private final RefusalCache refusals;

    DecisionGuard(CountStore store, GuardedRedis guarded, FailureModes failureModes, RateLimitConfig config,
            RateLimitMetrics metrics, DecisionTracing tracing, InvalidationChannel invalidations,
            DecisionObservers observers, InstanceClock clock) {
        this.observers = observers;
        this.clock = clock;
        this.store = store;
        this.guarded = guarded;
        this.failureModes = failureModes;
        this.metrics = metrics;
        this.tracing = tracing;
        this.refusals = config.refusalCache().enabled()
                ? new RefusalCache(config.refusalCache().maxEntries(), clock::nanoTime, invalidations::live)
                : null;
        if (refusals != null) {
            invalidations.listen(new InvalidationListener() {
                @Override
                public void keysChanged(List<String> keys) {
                    refusals.forget(keys);
                }

                @Override
                public void everythingChanged() {
                    refusals.forgetAll();
                }
            });
        }
    }

    /**
     * One decision per limit, in order; the call is admitted only if every one allows it. A refusal this instance
     * still holds from Redis ({@link RefusalCache}) answers without Redis, with every limit's decision as Redis gave it.
     * The limits in {@code shadow} are in shadow mode: decided as if enforced, but their refusal refuses nothing (the
     * caller lets the call proceed; a fail-closed one without Redis refuses instead of failing the call). Calls with
     * shadow limits skip the refusal cache, which answers for whole calls.
     *
     * @param tenant the tenant's id, for the metrics; {@code null} when the limits have none
     */
    @Override
    public Uni<List<RateLimitDecision>> acquire(List<String> keys, List<LimitDefinition> limits, String tenant,
            ShadowMask shadow) {
        Object span = tracing.currentSpan();
        // a slice Redis counted already: neither the guard nor the failure mode has anything to decide; and it comes
        // before a refusal this instance holds, which Redis gave while the slice held the key's last units
        List<RateLimitDecision> leased = store.decideLocally(keys, limits, shadow);
        if (leased != null) {
            observers.decided(new DecidedCall(keys, limits, leased, DecidedBy.LEASE, null, shadow, tenant, span));
            return DirectUni.item(leased);
        }
        List<RateLimitDecision> held = held(keys, limits, tenant, shadow, span);
        if (held != null) {
            return DirectUni.item(held);
        }
        GuardedNode node = guarded.nodeFor(keys.get(0)); // a call's keys share one slot
        return guarded.guarded(RedisOperation.DECIDE, node, () -> {
            if (refusals == null) {
                return store.decide(keys, limits, shadow);
            }
            long sent = clock.nanoTime();
            long stamp = refusals.stamp(keys);
            // a reply that comes after the failure mode decided is still Redis's word on the refusal
            return store.decide(keys, limits, shadow)
                    .onSuccess(decisions -> refusals.remember(keys, limits, decisions, sent, stamp));
        }, decisions -> observers.decided(new DecidedCall(keys, limits, decisions, DecidedBy.REDIS, null, shadow,
                tenant, span)), failure -> failureModes.decide(keys, limits, failure, tenant, span, shadow, node.retryAfter()));
    }

    /**
     * The refusal this instance holds for the call, as {@link #acquire} answers it from the refusal cache (counted and
     * traced the same way); {@code null} when it holds none, and Redis would have to decide. Sends nothing to Redis.
     */
    @Override
    public List<RateLimitDecision> heldRefusal(List<String> keys, List<LimitDefinition> limits, String tenant,
            ShadowMask shadow) {
        if (store.holdsUnitsFor(keys, limits, shadow)) {
            return null; // a slice of the keys admits the call (acquire)
        }
        return held(keys, limits, tenant, shadow, tracing.currentSpan());
    }

    private List<RateLimitDecision> held(List<String> keys, List<LimitDefinition> limits, String tenant,
            ShadowMask shadow, Object span) {
        if (refusals == null || !shadow.isEmpty()) {
            return null;
        }
        List<RateLimitDecision> refused = refusals.refusal(keys, limits);
        if (refused == null) {
            return null;
        }
        cachedRefusals.increment();
        observers.decided(new DecidedCall(keys, limits, refused, DecidedBy.LOCAL_CACHE, null, shadow, tenant, span));
        return refused;
    }

    /**
     * Gives back what an admitted call consumed of each limit ({@link #unlessUnavailable}). A refusal this instance
     * holds for those keys no longer holds; the script tells the other instances ({@link InvalidationChannel}).
     */
    public Uni<Void> refund(List<String> keys, List<LimitDefinition> limits) {
        forget(keys);
        return unlessUnavailable(RedisOperation.REFUND, keys, limits, () -> store.refund(keys, limits));
    }

    /**
     * Settles a reservation: each limit's cost is the difference to settle, real minus reserved (signed); emits each
     * limit's state after it ({@link #unlessUnavailable}). A refusal this instance holds for those keys no longer holds
     * when units came back.
     */
    public Uni<List<RateLimitDecision>> settle(List<String> keys, List<LimitDefinition> limits) {
        if (limits.stream().anyMatch(limit -> limit.getCost() < 0)) {
            forget(keys);
        }
        return unlessUnavailable(RedisOperation.SETTLE, keys, limits, () -> store.settle(keys, limits));
    }

    /**
     * A write that follows a decision (a refund, a settlement, a pause) on the decisions' guarded path: behind the
     * breaker of the keys' node and the decision timeout, and counted by that breaker. Where a decision would be taken
     * by the failure mode, it fails with {@link RateLimiterUnavailableException}: at once while the breaker is open, so
     * that an outage does not hold every refund for the timeout.
     */
    private <T> Uni<T> unlessUnavailable(RedisOperation operation, List<String> keys, List<LimitDefinition> limits,
            Supplier<Future<T>> write) {
        GuardedNode node = guarded.nodeFor(keys.get(0)); // a call's keys share one slot
        return guarded.guarded(operation, node, write, ignored -> {
        }, failure -> {
            throw new RateLimiterUnavailableException(limits.get(0).getName(), node.retryAfter(), failure);
        });
    }

    /**
     * The limits' state, read at cost 0 (consuming nothing) by Redis alone ({@link #unlessUnavailable}): an operator's
     * look at them is never answered by a failure mode, which would claim a state nobody read.
     */
    public Uni<List<RateLimitDecision>> look(List<String> keys, List<LimitDefinition> limits) {
        return unlessUnavailable(RedisOperation.ADMIN, keys, limits, () -> store.decide(keys, limits, ShadowMask.NONE));
    }

    /**
     * The units of each limit leased out to instances' slices and not given back, read by Redis alone
     * ({@link #unlessUnavailable}), as {@link #look} reads.
     */
    public Uni<List<Long>> leased(List<String> keys, List<LimitDefinition> limits) {
        return unlessUnavailable(RedisOperation.ADMIN, keys, limits, () -> store.leased(keys));
    }

    /** Counts a reservation of {@code limit} (its cost: the estimate) settled at {@code actualUnits}. */
    public void settled(LimitDefinition limit, long actualUnits) {
        metrics.settled(limit.getName(), limit.getCost(), actualUnits);
    }

    /**
     * Pauses the limits for {@code pause}, fleet-wide (an upstream service's retry time), as
     * {@link #unlessUnavailable} writes. It only makes refusals: no refusal this instance holds ends early.
     */
    public Uni<Void> pause(List<String> keys, List<LimitDefinition> limits, Duration pause) {
        return unlessUnavailable(RedisOperation.ADMIN, keys, limits, () -> store.pause(keys, limits, pause));
    }

    /**
     * Deletes the limits' state ({@link #unlessUnavailable}); no instance holds a refusal for those keys any longer.
     * Emits how many of the keys held state (0: there was nothing to reset).
     */
    public Uni<Integer> reset(List<String> keys, List<LimitDefinition> limits) {
        forget(keys);
        return unlessUnavailable(RedisOperation.ADMIN, keys, limits, () -> store.reset(keys));
    }

    private void forget(List<String> keys) {
        if (refusals != null) {
            refusals.forget(keys);
        }
    }

    /** How many calls were refused from the refusal cache, without Redis, since start-up. */
    public long cachedRefusals() {
        return cachedRefusals.sum();
    }
}
