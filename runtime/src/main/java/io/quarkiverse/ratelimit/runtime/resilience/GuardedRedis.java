package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
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
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RedisOperation;
import io.quarkiverse.ratelimit.runtime.observe.RedisOutcome;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.redis.ClusterNodes;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkiverse.ratelimit.runtime.resilience.PendingDecisions.Pending;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The guarded path to Redis: every call is bounded by {@code decision-timeout}, and a circuit breaker stops sending
 * calls to a Redis that keeps failing, so a dead Redis costs a request nothing while the breaker is open. In a cluster
 * each master has its own breaker and its own timeout ({@link GuardedNodes}). When Redis cannot answer, the caller's
 * {@code withoutRedis} decides ({@link FailureModes} for limits).
 */
@Singleton
public class GuardedRedis {

    private static final Logger LOG = Logger.getLogger(GuardedRedis.class);

    private final Vertx vertx;
    /** The instance's time: the breaker's, the pending decisions', and what the metrics time calls by. */
    private final InstanceClock clock;
    private final long sweeper;
    private final GuardedNodes nodes;
    private final ClusterNodes cluster;
    private final RateLimitMetrics metrics;
    private final LongAdder redisAttempts = new LongAdder();

    GuardedRedis(RedisTransport transport, ClusterNodes cluster, RateLimitConfig config,
            Event<CircuitBreakerTransition> transitions, Vertx vertx, RateLimitMetrics metrics, InstanceClock clock) {
        this.clock = clock;
        this.cluster = cluster;
        this.metrics = metrics;
        this.vertx = vertx;
        // connections that went silent may be what hangs (a client locked up, a half-open TCP connection) while Redis is
        // fine: the next decision, or the breaker's probe, opens new ones instead of waiting on them for ever
        this.nodes = new GuardedNodes(cluster,
                listener -> new CircuitBreaker(config.circuitBreaker().failureThreshold(),
                        config.circuitBreaker().openDuration(), clock::nanoTime, listener),
                lastReply -> new PendingDecisions(config.decisionTimeout().toNanos(), config.busyTimeout().toNanos(),
                        clock::nanoTime, lastReply, transport::renewConnections),
                transport::lastReplyNanos, clock::nanoTime, transition -> {
                    log(transition);
                    transitions.fire(transition);
                });
        metrics.circuitStateFrom(this::circuitState);
        this.sweeper = vertx.setPeriodic(PendingDecisions.sweepIntervalMillis(config.decisionTimeout().toMillis()),
                ignored -> nodes.sweep());
    }

    /** The node (its breaker and pending calls) that decides for {@code key}; a call's keys share one slot. */
    public GuardedNode nodeFor(String key) {
        return nodes.forKey(key);
    }

    /**
     * Runs a Redis call behind the decision timeout and the circuit breaker; when Redis cannot answer (or the breaker
     * is open, then {@code failure} is {@code null}), {@code withoutRedis} decides instead (what it throws is the
     * failure). {@code answeredInTime} sees the reply only when it decided (not a reply that came after the failure
     * mode had).
     *
     * @param key the key the call decides on, whose node's breaker guards the call
     */
    public <T> Uni<T> guarded(RedisOperation operation, String key, Supplier<Future<T>> redisCall,
            Consumer<T> answeredInTime, Function<Throwable, T> withoutRedis) {
        return guarded(operation, nodes.forKey(key), redisCall, answeredInTime, withoutRedis);
    }

    /**
     * As {@link #guarded(RedisOperation, String, Supplier, Consumer, Function)}, on {@code node}. One
     * {@link DirectUni} around a Vert.x future, and no timer of its own ({@link PendingDecisions}): this is every
     * decision's path.
     */
    public <T> Uni<T> guarded(RedisOperation operation, GuardedNode node, Supplier<Future<T>> redisCall,
            Consumer<T> answeredInTime, Function<Throwable, T> withoutRedis) {
        return DirectUni.emitting(emission -> {
            CircuitBreaker breaker = node.breaker;
            if (!breaker.tryAcquirePermission()) {
                emission.emit(() -> withoutRedis.apply(null));
                return;
            }
            redisAttempts.increment();
            // given up by the sweep: fail over on the caller's own event loop or worker, not all on the sweeper's
            Context caller = Vertx.currentContext();
            PendingDecisions pending = node.pending;
            Pending decision = pending.start((given, timeout) -> {
                metrics.redisCall(operation, RedisOutcome.TIMEOUT, clock.nanoTime() - given.startNanos);
                if (caller == null) {
                    failOver(node, emission, withoutRedis, timeout);
                } else {
                    caller.runOnContext(ignored -> failOver(node, emission, withoutRedis, timeout));
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
                metrics.redisCall(operation, result.succeeded() ? RedisOutcome.SUCCESS : RedisOutcome.of(result.cause()),
                        clock.nanoTime() - decision.startNanos);
                if (result.succeeded()) {
                    node.answered(clock.nanoTime());
                    breaker.onSuccess();
                    answeredInTime.accept(result.result());
                    emission.emit(result::result);
                } else {
                    failOver(node, emission, withoutRedis, result.cause());
                }
            });
        });
    }

    private <T> void failOver(GuardedNode node, DirectUni.Emission<T> emission, Function<Throwable, T> withoutRedis,
            Throwable failure) {
        if (node.counts(clock.nanoTime()) || node.breaker.state() != CircuitBreakerTransition.State.CLOSED) {
            node.breaker.onFailure(failure);
        }
        cluster.refreshSoon(); // in a cluster, a replica may have taken the failing master's slots
        LOG.debugf(failure, "Redis could not decide; using the failure mode");
        emission.emit(() -> withoutRedis.apply(failure));
    }

    @PreDestroy
    void stopSweeping() {
        vertx.cancelTimer(sweeper);
    }

    /** When Redis will next be tried for {@code key} (for a 503's Retry-After). */
    public Duration retryAfter(String key) {
        return nodes.forKey(key).breaker.retryAfter();
    }

    /** When the first open breaker tries Redis again (one second when none is open). */
    public Duration retryAfter() {
        return nodes.retryAfter();
    }

    /** The worst state of the breakers (one outside a cluster): OPEN when any is open. */
    public CircuitBreakerTransition.State circuitState() {
        return nodes.worst();
    }

    /** In a cluster, each master's breaker state by node; empty outside one (see {@link #circuitState}). */
    public Map<String, CircuitBreakerTransition.State> circuitStates() {
        return nodes.states();
    }

    /** How many calls were sent to Redis since start-up (none while the breaker is open). */
    public long redisAttempts() {
        return redisAttempts.sum();
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
