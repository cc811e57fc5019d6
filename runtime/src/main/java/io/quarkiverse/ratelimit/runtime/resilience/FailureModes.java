package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.observe.DecidedBy;
import io.quarkiverse.ratelimit.runtime.observe.DecidedCall;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObservers;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;

/**
 * What each limit does when Redis cannot decide, by its {@link FailureMode}: admit ({@code fail-open}), refuse with
 * 503 ({@code fail-closed}), or this instance's own limiter ({@code local}, {@link LocalFallback}); a fail-closed limit
 * in shadow mode refuses without failing the call.
 */
@Singleton
public class FailureModes {

    private final FailureMode defaultFailureMode;
    private final LocalFallback local;
    private final LimitModes modes;
    private final DecisionObservers observers;
    private final LongAdder degradedCalls = new LongAdder();

    @Inject
    FailureModes(RateLimitConfig config, LimitModes modes, DecisionObservers observers, InstanceClock clock,
            FleetSize fleet) {
        this(config.failureMode(), new LocalFallback(config.localFallback().maxEntries(), fleet::sharing, clock),
                modes, observers);
    }

    FailureModes(FailureMode defaultFailureMode, LocalFallback local, LimitModes modes, DecisionObservers observers) {
        this.defaultFailureMode = defaultFailureMode;
        this.local = local;
        this.modes = modes;
        this.observers = observers;
    }

    /** The failure mode that applies: the declared one, or the configured default. */
    public FailureMode failureMode(FailureMode declared) {
        return declared == FailureMode.DEFAULT ? defaultFailureMode : declared;
    }

    /** The limit's failure mode now: a run-time switch, else as declared, else the configured default. */
    private FailureMode failureMode(LimitDefinition limit) {
        return failureMode(modes.failureMode(limit));
    }

    /**
     * The decisions without Redis: each limit's failure mode decides; an enforced fail-closed limit fails the call
     * ({@link RateLimiterUnavailableException}, retried after {@code retryAfter}), then the local limits decide all or
     * nothing.
     */
    public List<RateLimitDecision> decide(List<String> keys, List<LimitDefinition> limits, Throwable cause, String tenant,
            Object span, ShadowMask shadow, Duration retryAfter) {
        degradedCalls.increment();
        List<LimitDefinition> localLimits = new ArrayList<>(limits.size());
        List<String> localKeys = new ArrayList<>(limits.size());
        ShadowMask localShadow = ShadowMask.NONE;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            FailureMode mode = failureMode(limit);
            if (mode == FailureMode.FAIL_CLOSED && !shadow.contains(i)) {
                observers.unavailable(limits, tenant, span);
                throw new RateLimiterUnavailableException(limit.getName(), retryAfter, cause);
            }
            if (mode != FailureMode.FAIL_OPEN && mode != FailureMode.FAIL_CLOSED) {
                if (shadow.contains(i)) {
                    localShadow = localShadow.with(localLimits.size());
                }
                localLimits.add(limit);
                localKeys.add(keys.get(i));
            }
        }
        List<RateLimitDecision> localDecisions = localLimits.isEmpty() ? List.of()
                : local.decide(localKeys, localLimits, localShadow).result(); // answered at once, from memory
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        List<DecidedBy> byLimit = new ArrayList<>(limits.size());
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
                        limit.window(), retryAfter, true);
                default -> localDecisions.get(next++);
            };
            decisions.add(decision);
            byLimit.add(by);
        }
        observers.decided(new DecidedCall(keys, limits, decisions,
                localLimits.isEmpty() ? DecidedBy.FAIL_OPEN : DecidedBy.FALLBACK, byLimit, shadow, tenant, span));
        return decisions;
    }

    /** How many calls were decided without Redis (by their failure mode) since start-up. */
    public long degradedCalls() {
        return degradedCalls.sum();
    }
}
