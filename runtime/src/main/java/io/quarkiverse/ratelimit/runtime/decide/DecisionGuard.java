package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.event.Event;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.smallrye.mutiny.Uni;

/**
 * Decides on Redis when Redis can, and by each limit's {@link FailureMode} when it cannot: every Redis decision is
 * bounded by {@code decision-timeout}, and a circuit breaker stops sending decisions to a Redis that keeps failing, so a
 * dead Redis costs a request nothing while the breaker is open.
 */
@Singleton
public class DecisionGuard {

    private static final Logger LOG = Logger.getLogger(DecisionGuard.class);

    private final RedisDecisions redis;
    private final ScriptRunner scripts;
    private final LocalFallback local;
    private final CircuitBreaker breaker;
    private final Duration timeout;
    private final Duration busyTimeout;
    private final FailureMode defaultFailureMode;
    private final LongAdder redisAttempts = new LongAdder();
    private final LongAdder degradedCalls = new LongAdder();
    private final LongAdder cachedRefusals = new LongAdder();
    /** {@code null} when refusals are not cached ({@code refusal-cache.enabled=false}). */
    private final RefusalCache refusals;

    DecisionGuard(RedisDecisions redis, ScriptRunner scripts, RateLimitConfig config,
            Event<CircuitBreakerTransition> transitions) {
        this.redis = redis;
        this.scripts = scripts;
        this.timeout = config.decisionTimeout();
        this.busyTimeout = config.busyTimeout();
        this.defaultFailureMode = config.failureMode();
        this.local = new LocalFallback(config.localFallback().maxEntries(),
                config.localFallback().expectedInstances(), System::currentTimeMillis);
        this.refusals = config.refusalCache().enabled()
                ? new RefusalCache(config.refusalCache().maxEntries(), System::nanoTime)
                : null;
        this.breaker = new CircuitBreaker(config.circuitBreaker().failureThreshold(),
                config.circuitBreaker().openDuration(), System::nanoTime, transition -> {
                    log(transition);
                    transitions.fire(transition);
                });
    }

    /**
     * One decision per limit, in order; the call is admitted only if every one allows it. A refusal this instance
     * still holds from Redis answers without Redis, with the decisions of the refusing limits only.
     */
    public Uni<List<RateLimitDecision>> acquire(List<String> keys, List<LimitDefinition> limits) {
        if (refusals != null) {
            List<RateLimitDecision> refused = refusals.refusal(keys, limits);
            if (refused != null) {
                cachedRefusals.increment();
                return Uni.createFrom().item(refused);
            }
            long sent = System.nanoTime();
            return guarded(() -> redis.acquire(keys, limits)
                    .invoke(decisions -> refusals.remember(keys, limits, decisions, sent)),
                    failure -> withoutRedis(keys, limits, failure));
        }
        return guarded(() -> redis.acquire(keys, limits), failure -> withoutRedis(keys, limits, failure));
    }

    /** Forgets what this instance knows of a key whose state it changed (a refund, a reset). */
    public void forget(List<String> keys) {
        if (refusals != null) {
            keys.forEach(refusals::forget);
        }
    }

    /** How many calls were refused from the refusal cache, without Redis, since start-up. */
    public long cachedRefusals() {
        return cachedRefusals.sum();
    }

    /**
     * Runs a Redis call behind the decision timeout and the circuit breaker; when Redis cannot answer (or the breaker
     * is open, then {@code failure} is {@code null}), {@code withoutRedis} decides instead.
     */
    public <T> Uni<T> guarded(Supplier<Uni<T>> redisCall, Function<Throwable, T> withoutRedis) {
        if (!breaker.tryAcquirePermission()) {
            return Uni.createFrom().item(() -> withoutRedis.apply(null));
        }
        redisAttempts.increment();
        // memoized: waiting on is subscribing again, never sending the call again
        Uni<T> reply = redisCall.get().memoize().indefinitely();
        return whileRedisAnswers(reply, System.nanoTime())
                .onItemOrFailure().transformToUni((item, failure) -> {
                    if (failure == null) {
                        breaker.onSuccess();
                        return Uni.createFrom().item(item);
                    }
                    breaker.onFailure(failure);
                    LOG.debugf(failure, "Redis could not decide; using the failure mode");
                    return Uni.createFrom().item(() -> withoutRedis.apply(failure));
                });
    }

    /**
     * Waits for {@code reply} while Redis is alive. A call that has had no reply for {@code decision-timeout} fails
     * over only if Redis has answered no other call meanwhile either: when it has, Redis works and this instance is
     * merely saturated (a cold JVM taking a burst on few cores), and failing over would trade an exact decision for a
     * local guess, and open the circuit breaker, for nothing. Such a call waits on, up to {@code busy-timeout}.
     */
    private <T> Uni<T> whileRedisAnswers(Uni<T> reply, long startedNanos) {
        return reply.ifNoItem().after(timeout).recoverWithUni(() -> {
            long now = System.nanoTime();
            boolean redisAnswers = now - scripts.lastReplyNanos() < timeout.toNanos();
            if (redisAnswers && now - startedNanos < busyTimeout.toNanos()) {
                return whileRedisAnswers(reply, startedNanos);
            }
            return Uni.createFrom().failure(new TimeoutException(redisAnswers
                    ? "Redis did not decide within " + busyTimeout + " while busy"
                    : "Redis answered nothing for " + timeout));
        });
    }

    /** The failure mode that applies: the declared one, or the configured default. */
    public FailureMode failureMode(FailureMode declared) {
        return declared == FailureMode.DEFAULT ? defaultFailureMode : declared;
    }

    /** When Redis will next be tried (for a 503's Retry-After). */
    public Duration retryAfter() {
        return breaker.retryAfter();
    }

    /** Each limit's failure mode decides; fail-closed wins, then the local limits decide all or nothing. */
    private List<RateLimitDecision> withoutRedis(List<String> keys, List<LimitDefinition> limits, Throwable cause) {
        degradedCalls.increment();
        List<LimitDefinition> local = new ArrayList<>(limits.size());
        List<String> localKeys = new ArrayList<>(limits.size());
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            FailureMode mode = failureMode(limit);
            if (mode == FailureMode.FAIL_CLOSED) {
                throw new RateLimiterUnavailableException(limit.getName(), breaker.retryAfter(), cause);
            }
            if (mode != FailureMode.FAIL_OPEN) {
                local.add(limit);
                localKeys.add(keys.get(i));
            }
        }
        List<RateLimitDecision> localDecisions = local.isEmpty() ? List.of() : this.local.acquire(localKeys, local);
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        int next = 0;
        for (LimitDefinition limit : limits) {
            decisions.add(failureMode(limit) == FailureMode.FAIL_OPEN
                    ? new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), true, limit.getLimit(),
                            limit.window(), Duration.ZERO, true)
                    : localDecisions.get(next++));
        }
        return decisions;
    }

    private FailureMode failureMode(LimitDefinition limit) {
        return failureMode(limit.getFailureMode());
    }

    public CircuitBreakerTransition.State circuitState() {
        return breaker.state();
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
        switch (transition.to()) {
            case OPEN -> LOG.warnf("Rate limiter: Redis failing (%s); circuit breaker open, limits use their failure"
                    + " mode", transition.cause() == null ? "?" : transition.cause().toString());
            case HALF_OPEN -> LOG.info("Rate limiter: circuit breaker half-open, probing Redis");
            case CLOSED -> LOG.info("Rate limiter: Redis answers again; circuit breaker closed");
        }
    }
}
