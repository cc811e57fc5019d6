package io.quarkiverse.ratelimit.runtime.status;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.lease.LeasedCounts;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
import io.quarkiverse.ratelimit.runtime.resilience.FailureModes;
import io.quarkiverse.ratelimit.runtime.resilience.GuardedRedis;

/**
 * The limiter's state on this instance, as one list of named values that the readiness check's data and the Dev UI's
 * Redis page both show, under the same names: the breaker, what decides, the scripts, the invalidations and the
 * counters since start-up.
 */
@Singleton
public class LimiterStatus {

    private final GuardedRedis guarded;
    private final FailureModes failureModes;
    private final DecisionGuard guard;
    private final ScriptRunner scripts;
    private final InvalidationChannel invalidations;
    private final FleetSize fleet;
    private final LeasedCounts leases;

    LimiterStatus(GuardedRedis guarded, FailureModes failureModes, DecisionGuard guard, ScriptRunner scripts,
            InvalidationChannel invalidations, FleetSize fleet, LeasedCounts leases) {
        this.fleet = fleet;
        this.leases = leases;
        this.guarded = guarded;
        this.failureModes = failureModes;
        this.guard = guard;
        this.scripts = scripts;
        this.invalidations = invalidations;
    }

    /** The breaker state that decides: the worst one (in a cluster, of any master). */
    public CircuitBreakerTransition.State circuit() {
        return guarded.circuitState();
    }

    /** In a cluster, each master's breaker state by node; empty outside one. */
    public Map<String, CircuitBreakerTransition.State> circuitStates() {
        return guarded.circuitStates();
    }

    /** How many calls were decided without Redis (by their failure mode) since start-up. */
    public long decisionsWithoutRedis() {
        return failureModes.degradedCalls();
    }

    /** How many decisions were sent to Redis since start-up (none while the breaker is open). */
    public long decisionsSentToRedis() {
        return guarded.redisAttempts();
    }

    /** @param redisAnswers whether Redis answered a PING just now, when the caller asked; {@code null} when not asked */
    public Map<String, Object> snapshot(Boolean redisAnswers) {
        CircuitBreakerTransition.State circuit = circuit();
        boolean redisDecides = !Boolean.FALSE.equals(redisAnswers) && circuit == CircuitBreakerTransition.State.CLOSED;
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("circuit", name(circuit));
        Map<String, CircuitBreakerTransition.State> byNode = circuitStates();
        if (!byNode.isEmpty()) {
            // a cluster: one breaker per master, so some masters' tenants may be exact while others' fail over
            status.put("circuit-by-node", byNode.entrySet().stream()
                    .map(node -> node.getKey() + "=" + name(node.getValue()))
                    .collect(Collectors.joining(", ")));
        }
        if (circuit == CircuitBreakerTransition.State.OPEN) {
            status.put("redis-tried-again-in", guarded.retryAfter().toMillis() + " ms");
        }
        status.put("decided-by", redisDecides ? "redis" : "failure modes");
        status.put("function-library", scripts.functionLibrary());
        status.put("scripts-used", scripts.scriptsUsed());
        status.put("scripts-preloaded", scripts.scriptsPreloaded());
        status.put("script-reloads", scripts.noScriptRecoveries());
        status.put("decisions-sent-to-redis", decisionsSentToRedis());
        status.put("decisions-without-redis", decisionsWithoutRedis());
        status.put("refusals-from-cache", guard.cachedRefusals());
        status.put("invalidations", invalidations.live() ? "heard" : "not heard: refusals are not cached");
        // what the local failure mode divides a limit by: the fleet as last heard, or expected-instances when set
        status.put("live-instances", fleet.live());
        status.put("local-fallback-instances", fleet.sharing());
        if (leases.enabled()) {
            // what this instance holds of the limits now, and what it admitted from slices without Redis
            status.put("leased-units", leases.unitsHeld());
            status.put("decisions-from-leases", leases.leasedAdmissions());
            status.put("leases-taken", leases.leasesTaken());
        }
        return status;
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
