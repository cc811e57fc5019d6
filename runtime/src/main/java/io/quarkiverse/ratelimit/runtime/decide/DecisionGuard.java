package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Event;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.decide.PendingDecisions.Pending;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.observe.DecidedBy;
import io.quarkiverse.ratelimit.runtime.observe.DecisionTracing;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RedisOperation;
import io.quarkiverse.ratelimit.runtime.observe.RedisOutcome;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.redis.ClusterNodes;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Decides on Redis when Redis can, and by each limit's {@link FailureMode} when it cannot: every Redis decision is
 * bounded by {@code decision-timeout}, and a circuit breaker stops sending decisions to a Redis that keeps failing, so a
 * dead Redis costs a request nothing while the breaker is open. In a cluster each master has its own breaker and
 * its own timeout ({@link GuardedNodes}).
 */
@Singleton
public class DecisionGuard {

    private static final Logger LOG = Logger.getLogger(DecisionGuard.class);

    private final RedisDecisions redis;
    private final Vertx vertx;
    private final long sweeper;
    private final LocalFallback local;
    private final GuardedNodes nodes;
    private final ClusterNodes cluster;
    private final FailureMode defaultFailureMode;
    private final LongAdder redisAttempts = new LongAdder();
    private final LongAdder degradedCalls = new LongAdder();
    private final LongAdder cachedRefusals = new LongAdder();
    private final RateLimitMetrics metrics;
    private final DecisionTracing tracing;
    private final LimitModes modes;
    private final Duration decisionTimeout;
    /** {@code null} when refusals are not cached ({@code refusal-cache.enabled=false}). */
    private final RefusalCache refusals;

    DecisionGuard(RedisDecisions redis, ScriptRunner scripts, ClusterNodes cluster, RateLimitConfig config,
            Event<CircuitBreakerTransition> transitions, Vertx vertx, RateLimitMetrics metrics,
            DecisionTracing tracing, LimitModes modes, InvalidationChannel invalidations) {
        this.redis = redis;
        this.cluster = cluster;
        this.modes = modes;
        this.metrics = metrics;
        this.tracing = tracing;
        this.decisionTimeout = config.decisionTimeout();
        this.vertx = vertx;
        // connections that went silent may be what hangs (a client locked up, a half-open TCP connection) while Redis is
        // fine: the next decision, or the breaker's probe, opens new ones instead of waiting on them for ever
        this.nodes = new GuardedNodes(cluster,
                listener -> new CircuitBreaker(config.circuitBreaker().failureThreshold(),
                        config.circuitBreaker().openDuration(), System::nanoTime, listener),
                lastReply -> new PendingDecisions(config.decisionTimeout().toNanos(), config.busyTimeout().toNanos(),
                        System::nanoTime, lastReply, scripts::renewConnections),
                scripts::lastReplyNanos, System::nanoTime, transition -> {
                    log(transition);
                    transitions.fire(transition);
                });
        metrics.circuitStateFrom(this::circuitState);
        this.sweeper = vertx.setPeriodic(PendingDecisions.sweepIntervalMillis(config.decisionTimeout().toMillis()),
                ignored -> nodes.sweep());
        this.defaultFailureMode = config.failureMode();
        this.local = new LocalFallback(config.localFallback().maxEntries(),
                config.localFallback().expectedInstances(), System::currentTimeMillis);
        this.refusals = config.refusalCache().enabled()
                ? new RefusalCache(config.refusalCache().maxEntries(), System::nanoTime, invalidations::live)
                : null;
        if (refusals != null) {
            invalidations.listen(new InvalidationChannel.Listener() {
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
     *
     * @param tenant the tenant's id, for the metrics; {@code null} when the limits have none
     */
    public Uni<List<RateLimitDecision>> acquire(List<String> keys, List<LimitDefinition> limits, String tenant) {
        return acquire(keys, limits, tenant, 0);
    }

    /**
     * As {@link #acquire(List, List, String)}, with the limits whose bit is set in {@code shadowMask} in shadow mode:
     * decided as if enforced, but their refusal refuses nothing (the caller lets the call proceed), and a fail-closed
     * one without Redis refuses instead of failing the call. Such calls skip the refusal cache, which answers for whole
     * calls.
     */
    public Uni<List<RateLimitDecision>> acquire(List<String> keys, List<LimitDefinition> limits, String tenant,
            long shadowMask) {
        return acquire(keys, limits, tenant, shadowMask, Function.identity());
    }

    /**
     * As {@link #acquire(List, List, String, long)}, the decisions turned into the call's answer by {@code shape} (which
     * may throw, the Uni's failure) within the same step: a {@code map} after it would capture the caller's context.
     */
    public <R> Uni<R> acquire(List<String> keys, List<LimitDefinition> limits, String tenant, long shadowMask,
            Function<List<RateLimitDecision>, R> shape) {
        Object span = tracing.currentSpan();
        if (refusals != null && shadowMask == 0) {
            List<RateLimitDecision> refused = refusals.refusal(keys, limits);
            if (refused != null) {
                cachedRefusals.increment();
                decided(refused, DecidedBy.LOCAL_CACHE, 0, tenant, span);
                return DirectUni.computed(() -> shape.apply(refused));
            }
        }
        GuardedNode node = nodes.forKey(keys.get(0)); // a call's keys share one slot
        return guarded(RedisOperation.DECIDE, node, () -> {
            if (refusals == null) {
                return redis.decide(keys, limits, shadowMask);
            }
            long sent = System.nanoTime();
            long stamp = refusals.stamp(keys);
            // a reply that comes after the failure mode decided is still Redis's word on the refusal
            return redis.decide(keys, limits, shadowMask)
                    .onSuccess(decisions -> refusals.remember(keys, limits, decisions, sent, stamp));
        }, decisions -> decided(decisions, DecidedBy.REDIS, shadowMask, tenant, span),
                failure -> withoutRedis(keys, limits, failure, tenant, span, shadowMask, node.breaker), shape);
    }

    private void decided(List<RateLimitDecision> decisions, DecidedBy by, long shadowMask, String tenant,
            Object span) {
        metrics.decided(decisions, by, shadowMask, tenant);
        tracing.decided(span, decisions, by);
    }

    /**
     * Gives back what an admitted call consumed of each limit, failing after {@code decision-timeout}. A refusal this
     * instance holds for those keys no longer holds; the script tells the other instances ({@link InvalidationChannel}).
     */
    public Uni<Void> refund(List<String> keys, List<LimitDefinition> limits) {
        forget(keys);
        return metrics.timed(RedisOperation.REFUND,
                redis.refund(keys, limits).ifNoItem().after(decisionTimeout).fail());
    }

    /** Deletes the limits' state; no instance holds a refusal for those keys any longer. */
    public Uni<Void> reset(List<String> keys) {
        forget(keys);
        return redis.reset(keys);
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

    /**
     * Runs a Redis call behind the decision timeout and the circuit breaker; when Redis cannot answer (or the breaker
     * is open, then {@code failure} is {@code null}), {@code withoutRedis} decides instead. {@code answeredInTime} sees
     * the reply only when it decided (not a reply that came after the failure mode had). One {@link DirectUni} around
     * a Vert.x future, and no timer of its own ({@link PendingDecisions}): this is every decision's path.
     *
     * @param key the key the call decides on, whose node's breaker guards the call
     */
    public <T> Uni<T> guarded(RedisOperation operation, String key, Supplier<Future<T>> redisCall,
            Consumer<T> answeredInTime, Function<Throwable, T> withoutRedis) {
        return guarded(operation, nodes.forKey(key), redisCall, answeredInTime, withoutRedis, Function.identity());
    }

    private <T, R> Uni<R> guarded(RedisOperation operation, GuardedNode node, Supplier<Future<T>> redisCall,
            Consumer<T> answeredInTime, Function<Throwable, T> withoutRedis, Function<? super T, ? extends R> shape) {
        return DirectUni.emitting(emission -> {
            CircuitBreaker breaker = node.breaker;
            if (!breaker.tryAcquirePermission()) {
                emission.emit(() -> shape.apply(withoutRedis.apply(null)));
                return;
            }
            redisAttempts.increment();
            // given up by the sweep: fail over on the caller's own event loop or worker, not all on the sweeper's
            Context caller = Vertx.currentContext();
            PendingDecisions pending = node.pending;
            Pending decision = pending.start((given, timeout) -> {
                metrics.redisCall(operation, RedisOutcome.TIMEOUT, System.nanoTime() - given.startNanos);
                if (caller == null) {
                    failOver(node, emission, withoutRedis, shape, timeout);
                } else {
                    caller.runOnContext(ignored -> failOver(node, emission, withoutRedis, shape, timeout));
                }
            });
            Future<T> reply;
            try {
                reply = redisCall.get();
            } catch (RuntimeException e) {
                reply = Future.failedFuture(e);
            }
            reply.onComplete(result -> {
                if (!decision.settle()) {
                    return; // given up already: the failure mode decided
                }
                pending.done(decision);
                metrics.redisCall(operation, result.succeeded() ? RedisOutcome.SUCCESS : RedisOutcome.of(result.cause()),
                        System.nanoTime() - decision.startNanos);
                if (result.succeeded()) {
                    node.answered(System.nanoTime());
                    breaker.onSuccess();
                    answeredInTime.accept(result.result());
                    emission.emit(() -> shape.apply(result.result()));
                } else {
                    failOver(node, emission, withoutRedis, shape, result.cause());
                }
            });
        });
    }

    private <T, R> void failOver(GuardedNode node, DirectUni.Emission<R> emission,
            Function<Throwable, T> withoutRedis, Function<? super T, ? extends R> shape, Throwable failure) {
        if (node.counts(System.nanoTime()) || node.breaker.state() != CircuitBreakerTransition.State.CLOSED) {
            node.breaker.onFailure(failure);
        }
        cluster.refreshSoon(); // in a cluster, a replica may have taken the failing master's slots
        LOG.debugf(failure, "Redis could not decide; using the failure mode");
        emission.emit(() -> shape.apply(withoutRedis.apply(failure)));
    }

    @PreDestroy
    void stopSweeping() {
        vertx.cancelTimer(sweeper);
    }

    /** The failure mode that applies: the declared one, or the configured default. */
    public FailureMode failureMode(FailureMode declared) {
        return declared == FailureMode.DEFAULT ? defaultFailureMode : declared;
    }

    /** When Redis will next be tried for {@code key} (for a 503's Retry-After). */
    public Duration retryAfter(String key) {
        return nodes.forKey(key).breaker.retryAfter();
    }

    /** When the first open breaker tries Redis again (one second when none is open). */
    public Duration retryAfter() {
        return nodes.retryAfter();
    }

    /**
     * Each limit's failure mode decides; an enforced fail-closed limit fails the call, then the local limits decide
     * all or nothing. A fail-closed limit in shadow mode refuses without failing the call.
     */
    private List<RateLimitDecision> withoutRedis(List<String> keys, List<LimitDefinition> limits, Throwable cause,
            String tenant, Object span, long shadowMask, CircuitBreaker breaker) {
        degradedCalls.increment();
        List<LimitDefinition> local = new ArrayList<>(limits.size());
        List<String> localKeys = new ArrayList<>(limits.size());
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            FailureMode mode = failureMode(limit);
            if (mode == FailureMode.FAIL_CLOSED && !shadowed(shadowMask, i)) {
                metrics.unavailable(limits, tenant);
                tracing.unavailable(span, limits);
                throw new RateLimiterUnavailableException(limit.getName(), breaker.retryAfter(), cause);
            }
            if (mode != FailureMode.FAIL_OPEN && mode != FailureMode.FAIL_CLOSED) {
                local.add(limit);
                localKeys.add(keys.get(i));
            }
        }
        List<RateLimitDecision> localDecisions = local.isEmpty() ? List.of() : this.local.acquire(localKeys, local);
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        int next = 0;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            DecidedBy by = switch (failureMode(limit)) {
                case FAIL_OPEN -> DecidedBy.FAIL_OPEN;
                case FAIL_CLOSED -> DecidedBy.FAIL_CLOSED;
                default -> DecidedBy.FALLBACK;
            };
            RateLimitDecision decision = switch (by) {
                case FAIL_OPEN -> new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), true,
                        limit.getLimit(), limit.window(), Duration.ZERO, true);
                case FAIL_CLOSED -> new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), false, 0,
                        limit.window(), breaker.retryAfter(), true);
                default -> localDecisions.get(next++);
            };
            metrics.decided(decision, by, shadowed(shadowMask, i), tenant);
            decisions.add(decision);
        }
        tracing.decided(span, decisions, local.isEmpty() ? DecidedBy.FAIL_OPEN : DecidedBy.FALLBACK);
        return decisions;
    }

    private static boolean shadowed(long shadowMask, int limit) {
        return (shadowMask & (1L << limit)) != 0;
    }

    /** The limit's failure mode now: a run-time switch, else as declared, else the configured default. */
    private FailureMode failureMode(LimitDefinition limit) {
        return failureMode(modes.failureMode(limit));
    }

    /** The worst state of the breakers (one outside a cluster): OPEN when any is open. */
    public CircuitBreakerTransition.State circuitState() {
        return nodes.worst();
    }

    /** In a cluster, each master's breaker state by node; empty outside one (see {@link #circuitState}). */
    public Map<String, CircuitBreakerTransition.State> circuitStates() {
        return nodes.states();
    }

    /** How many decisions were sent to Redis since start-up (none while the breaker is open). */
    public long redisAttempts() {
        return redisAttempts.sum();
    }

    /** How many calls were decided without Redis (by their failure mode) since start-up. */
    public long degradedCalls() {
        return degradedCalls.sum();
    }

    private static void log(CircuitBreakerTransition transition) {
        String redis = transition.node() == null ? "Redis" : "Redis node " + transition.node();
        String limits = transition.node() == null ? "limits" : "limits on its slots";
        switch (transition.to()) {
            case OPEN -> LOG.warnf("Rate limiter: %s failing (%s); circuit breaker open, %s use their failure mode",
                    redis, transition.cause() == null ? "?" : transition.cause().toString(), limits);
            case HALF_OPEN -> LOG.infof("Rate limiter: circuit breaker half-open, probing %s", redis);
            case CLOSED -> LOG.infof("Rate limiter: %s answers again; circuit breaker closed", redis);
        }
    }
}
