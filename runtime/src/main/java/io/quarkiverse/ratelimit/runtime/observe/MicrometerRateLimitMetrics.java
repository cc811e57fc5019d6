package io.quarkiverse.ratelimit.runtime.observe;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredConcurrencyLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;

/**
 * The rate limiter's Micrometer meters. The names and tags are a public contract (dashboards and alerts use them);
 * the observability page of the docs lists them. Meters are created on first use and then found without a lookup
 * in the registry: one map read and one counter increment per limit of a call.
 */
@Startup
@Singleton
public class MicrometerRateLimitMetrics implements RateLimitMetrics {

    static final String REDIS_DURATION = "rate_limit.redis.duration";
    static final String CIRCUIT_STATE = "rate_limit.circuit.state";
    static final String CIRCUIT_TRANSITIONS = "rate_limit.circuit.transitions";
    static final String SCRIPT_RELOADS = "rate_limit.redis.script_reloads";
    static final String CONCURRENCY_REJECTED = "rate_limit.concurrency.rejected";
    static final String THRESHOLDS_REACHED = "rate_limit.thresholds.reached";

    /** The histogram's buckets: a decision takes well under a millisecond; 50 ms is the alert; 1 s the timeout. */
    private static final Duration[] LATENCY_BUCKETS = {
            Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10) };

    private static final RedisOutcome[] OUTCOMES = RedisOutcome.values();

    private final MeterRegistry registry;
    private final boolean enabled;
    private final double nearLimitRatio;
    private final boolean tenantTag;
    private final TenantTagValues tenantValues;
    private final ConcurrentMap<Object, MicrometerLimitMeters> limits = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> concurrencyRejections = new ConcurrentHashMap<>();
    private final MicrometerWaitMeters waits;
    private final MicrometerReservationMeters reservations;
    private final Timer[] redisDurations;
    /** The breakers' worst state, as the decision guard tells it. */
    private volatile Supplier<CircuitBreakerTransition.State> circuitState = () -> CircuitBreakerTransition.State.CLOSED;
    private final Counter scriptReloads;

    @Inject
    MicrometerRateLimitMetrics(MeterRegistry registry, RateLimitConfig config) {
        this(registry, config.metrics().enabled(), config.metrics().nearLimitRatio(), config.metrics().tenantTag(),
                config.metrics().maxTenants());
    }

    MicrometerRateLimitMetrics(MeterRegistry registry, boolean enabled, double nearLimitRatio, boolean tenantTag,
            int maxTenants) {
        this.registry = registry;
        this.enabled = enabled;
        this.nearLimitRatio = nearLimitRatio;
        this.tenantTag = tenantTag;
        this.tenantValues = new TenantTagValues(maxTenants);
        this.waits = new MicrometerWaitMeters(registry);
        this.reservations = new MicrometerReservationMeters(registry);
        this.redisDurations = new Timer[RedisOperation.values().length * OUTCOMES.length];
        if (!enabled) {
            this.scriptReloads = null;
            return;
        }
        for (RedisOperation operation : RedisOperation.values()) {
            for (RedisOutcome outcome : OUTCOMES) {
                redisDurations[timer(operation, outcome)] = Timer.builder(REDIS_DURATION)
                        .description("Time from sending a call to Redis until its reply (or until the rate limiter"
                                + " gave up waiting)")
                        .tags("operation", operation.tag(), "outcome", outcome.tag())
                        // a few fixed buckets, not Micrometer's ~70 per timer: 12 timers on every instance. No
                        // client-side percentiles: a fleet's quantiles come from the buckets of every instance, and
                        // percentiles cost every decision several histogram updates
                        .serviceLevelObjectives(LATENCY_BUCKETS)
                        .register(registry);
            }
        }
        Gauge.builder(CIRCUIT_STATE, this, metrics -> switch (metrics.circuitState.get()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        })
                .description("The circuit breaker in front of Redis: 0 closed, 1 half-open, 2 open (in a cluster, the"
                        + " worst of the masters' breakers)")
                .strongReference(true)
                .register(registry);
        for (CircuitBreakerTransition.State from : CircuitBreakerTransition.State.values()) {
            for (CircuitBreakerTransition.State to : CircuitBreakerTransition.State.values()) {
                if (from != to) {
                    transitions(from, to); // present at 0, so that rate() and increase() see the first one
                }
            }
        }
        this.scriptReloads = Counter.builder(SCRIPT_RELOADS)
                .description("Scripts sent again because Redis had lost them (NOSCRIPT)")
                .register(registry);
    }

    /**
     * Registers at start-up, at zero, the series every limit has in normal operation, so that {@code rate()} and
     * {@code increase()} see the first decisions, dashboards list every limit and alerts find their series. With the
     * tenant tag, the tenants are not known yet.
     */
    void registerKnownLimits(@Observes StartupEvent event, EffectiveLimits limits, DeclaredConcurrencyLimits declared) {
        if (!enabled) {
            return;
        }
        if (!tenantTag) {
            limits.all().values().forEach(method -> method.variants().forEach(variant -> variant.getLimits()
                    .forEach(limit -> {
                        MicrometerLimitMeters meters = meters(limit.getName(), null);
                        meters.decision(true, DecidedBy.REDIS, false);
                        meters.decision(false, DecidedBy.REDIS, false);
                        meters.nearLimit();
                    })));
        }
        declared.all().values().forEach(limit -> concurrencyRejections(limit.getName()));
    }

    @Override
    public void decided(List<RateLimitDecision> decisions, DecidedBy by, ShadowMask shadow, String tenant) {
        if (!enabled) {
            return;
        }
        String tenantValue = tenantTag ? tenantValues.valueOf(tenant) : null;
        for (int i = 0; i < decisions.size(); i++) {
            count(decisions.get(i), by, shadow.contains(i), tenantValue);
        }
    }

    @Override
    public void decided(RateLimitDecision decision, DecidedBy by, boolean shadow, String tenant) {
        if (enabled) {
            count(decision, by, shadow, tenantTag ? tenantValues.valueOf(tenant) : null);
        }
    }

    private void count(RateLimitDecision decision, DecidedBy by, boolean shadow, String tenantValue) {
        MicrometerLimitMeters meters = meters(decision.limitName(), tenantValue);
        meters.decision(decision.allowed(), by, shadow).increment();
        // a leased admission's remaining is what its slice holds, not what the limit has left (LEASE's Javadoc)
        if (decision.allowed() && by != DecidedBy.LEASE && decision.remaining() < nearLimitRatio * decision.limit()) {
            meters.nearLimit().increment();
        }
    }

    @Override
    public void unavailable(List<LimitDefinition> limits, String tenant) {
        if (!enabled) {
            return;
        }
        String tenantValue = tenantTag ? tenantValues.valueOf(tenant) : null;
        for (LimitDefinition limit : limits) {
            meters(limit.getName(), tenantValue).decision(false, DecidedBy.FAIL_CLOSED, false).increment();
        }
    }

    @Override
    public void redisCall(RedisOperation operation, RedisOutcome outcome, long nanos) {
        if (enabled) {
            redisDurations[timer(operation, outcome)].record(nanos,
                    TimeUnit.NANOSECONDS);
        }
    }

    /** The index of a timer; {@code OUTCOMES} is copied once: {@code values()} allocates on every call. */
    private static int timer(RedisOperation operation, RedisOutcome outcome) {
        return operation.ordinal() * OUTCOMES.length + outcome.ordinal();
    }

    @Override
    public void scriptReloaded() {
        if (enabled) {
            scriptReloads.increment();
        }
    }

    @Override
    public void concurrencyRejected(String limit) {
        if (enabled) {
            concurrencyRejections(limit).increment();
        }
    }

    @Override
    public void thresholdReached(String limit, int percent) {
        if (enabled) {
            Counter.builder(THRESHOLDS_REACHED)
                    .description("Thresholds of a limit's use reached, once per threshold, tenant and period")
                    .tag("limit", limit).tag("threshold", Integer.toString(percent)).register(registry).increment();
        }
    }

    @Override
    public void settled(String limit, long reserved, long settled) {
        if (enabled) {
            reservations.settled(limit, reserved, settled);
        }
    }

    @Override
    public void settledLate(String limit) {
        if (enabled) {
            reservations.settledLate(limit);
        }
    }

    @Override
    public void adaptiveLimit(String limit, DoubleSupplier learned) {
        if (enabled) {
            waits.adaptive(limit, learned);
        }
    }

    @Override
    public void refusedCallers(IntSupplier callers, DoubleSupplier topShare) {
        if (enabled) {
            MicrometerRefusalMeters.register(registry, callers, topShare);
        }
    }

    @Override
    public void upstreamPaused(List<LimitDefinition> pausedLimits) {
        if (enabled) {
            pausedLimits.forEach(limit -> waits.paused(limit.getName()));
        }
    }

    @Override
    public void waitDecided(List<RateLimitDecision> decisions) {
        if (enabled) {
            waits.decided(decisions);
        }
    }

    private Counter concurrencyRejections(String limit) {
        return concurrencyRejections.computeIfAbsent(limit, name -> Counter.builder(CONCURRENCY_REJECTED)
                .description("Calls refused because the tenant's concurrency limit was in flight")
                .tag("limit", name)
                .register(registry));
    }

    @Override
    public void circuitStateFrom(Supplier<CircuitBreakerTransition.State> state) {
        this.circuitState = state;
    }

    void circuitTransition(@Observes CircuitBreakerTransition transition) {
        if (enabled) {
            transitions(transition.from(), transition.to()).increment();
        }
    }

    private Counter transitions(CircuitBreakerTransition.State from, CircuitBreakerTransition.State to) {
        return Counter.builder(CIRCUIT_TRANSITIONS)
                .description("Transitions of the circuit breaker in front of Redis")
                .tags("from", tag(from), "to", tag(to))
                .register(registry);
    }

    private static String tag(CircuitBreakerTransition.State state) {
        return state.name().toLowerCase(java.util.Locale.ROOT);
    }

    private MicrometerLimitMeters meters(String limit, String tenantValue) {
        Object key = tenantValue == null ? limit : List.of(limit, tenantValue);
        MicrometerLimitMeters meters = limits.get(key);
        if (meters == null) {
            meters = limits.computeIfAbsent(key, ignored -> new MicrometerLimitMeters(registry, limit, tenantValue));
        }
        return meters;
    }
}
