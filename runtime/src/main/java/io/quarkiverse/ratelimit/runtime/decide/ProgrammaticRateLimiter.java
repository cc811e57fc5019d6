package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.ConcurrencyLimit;
import io.quarkiverse.ratelimit.ConcurrencySlot;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeLimits;
import io.smallrye.mutiny.Uni;

/** The {@link RateLimiter} bean: the annotation's decision path, with limits and tenants given by the caller. */
@Singleton
public class ProgrammaticRateLimiter implements RateLimiter {

    private static final int REMEMBERED_LIMITS = 1024;

    private final DecisionGuard guard;
    private final ConcurrencyLeases concurrency;
    private final RateLimitKeys keys;
    private final RunTimeLimits runTimeLimits;
    private final SlotWaits waits;
    /** The definitions of the limits decided at cost 1, by identity of the {@link RateLimit} ({@link #definition}). */
    private final Map<RateLimit, LimitDefinition> atCostOne = new ConcurrentHashMap<>();

    ProgrammaticRateLimiter(DecisionGuard guard, ConcurrencyLeases concurrency,
            RateLimitKeys keys, RunTimeLimits runTimeLimits, SlotWaits waits) {
        this.waits = waits;
        this.runTimeLimits = runTimeLimits;
        this.guard = guard;
        this.concurrency = concurrency;
        this.keys = keys;
    }

    @Override
    public Uni<ConcurrencySlot> acquireSlot(ConcurrencyLimit limit, String tenant) {
        ConcurrencyDefinition definition = new ConcurrencyDefinition(limit.name(), limit.limit(),
                limit.lease().toMillis(), limit.failureMode(), ReturnKind.UNI);
        return concurrency.acquire(tag(tenant), definition).map(lease -> lease);
    }

    @Override
    public Uni<RateLimitDecision> tryAcquire(RateLimit limit, String tenant, long cost) {
        String tag = tag(tenant);
        List<LimitDefinition> definitions = runTimeLimits.apply(List.of(definition(limit, checkedCost(limit, cost))),
                tag);
        return guard.acquire(keys.keys(tag, definitions), definitions, tenant, ShadowMask.NONE,
                decisions -> decisions.get(0));
    }

    @Override
    public Uni<List<RateLimitDecision>> tryAcquireAll(List<RateLimit> limits, String tenant) {
        if (limits.isEmpty()) {
            throw new IllegalArgumentException("No limits to acquire");
        }
        List<LimitDefinition> definitions = new ArrayList<>(limits.size());
        for (RateLimit limit : limits) {
            definitions.add(definition(limit, 1));
        }
        String tag = tag(tenant);
        List<LimitDefinition> applied = runTimeLimits.apply(definitions, tag);
        return guard.acquire(keys.keys(tag, applied), applied, tenant);
    }

    @Override
    public Uni<RateLimitDecision> acquire(RateLimit limit, String tenant, long cost) {
        LimitDefinition definition = definition(limit, checkedCost(limit, cost));
        return waiting(tenant, List.of(definition.toBuilder().maxWait(limit.maxWait().toMillis()).build()))
                .map(decisions -> decisions.get(0));
    }

    @Override
    public Uni<List<RateLimitDecision>> acquireAll(List<RateLimit> limits, String tenant) {
        if (limits.isEmpty()) {
            throw new IllegalArgumentException("No limits to acquire");
        }
        List<LimitDefinition> definitions = new ArrayList<>(limits.size());
        for (RateLimit limit : limits) {
            definitions.add(definition(limit, 1).toBuilder().maxWait(limit.maxWait().toMillis()).build());
        }
        String violation = WaitingCalls.violation(definitions);
        if (violation != null) {
            throw new IllegalArgumentException("A call of " + limits + " cannot wait: " + violation);
        }
        return waiting(tenant, definitions);
    }

    /** The decisions of limits a call may wait for: after the wait, when Redis reserved a later slot. */
    private Uni<List<RateLimitDecision>> waiting(String tenant, List<LimitDefinition> definitions) {
        String tag = tag(tenant);
        List<LimitDefinition> applied = runTimeLimits.apply(definitions, tag);
        List<String> limitKeys = keys.keys(tag, applied);
        if (WaitingCalls.maxWaitMillis(applied) == 0) {
            return guard.acquire(limitKeys, applied, tenant);
        }
        return waits.answered(guard.acquire(limitKeys, applied, tenant), limitKeys, CallDecision::waitMillis,
                Function.identity(), decisions -> guard.refund(limitKeys, applied).subscribe().with(done -> {
                }, failure -> {
                }), CallDecision::revoked);
    }

    @Override
    public Uni<Void> refund(RateLimit limit, String tenant, long cost) {
        String tag = tag(tenant);
        List<LimitDefinition> definitions = runTimeLimits.apply(List.of(definition(limit, checkedCost(limit, cost))),
                tag);
        return guard.refund(keys.keys(tag, definitions), definitions);
    }

    @Override
    public Uni<Void> reset(RateLimit limit, String tenant) {
        return guard.reset(List.of(keys.key(tag(tenant), definition(limit, 0))));
    }

    /** Units taken or given back at once: 0 up to what the limit holds at most (its burst, else the limit). */
    private static long checkedCost(RateLimit limit, long cost) {
        String violation = LimitRules.cost(cost, limit.limit(), limit.burst());
        if (violation != null) {
            throw new IllegalArgumentException("A call of '" + limit.name() + "' costs " + cost + "; " + violation);
        }
        return cost;
    }

    /**
     * The limit's definition at {@code cost}. At cost 1, the usual call, it is made once per limit: most code keeps its
     * limits as constants, and a decision should not rebuild one. {@link RateLimit} is compared by identity; code that
     * makes a limit per call fills the memory up to {@link #REMEMBERED_LIMITS} and it starts again.
     */
    private LimitDefinition definition(RateLimit limit, long cost) {
        if (cost != 1) {
            return newDefinition(limit, cost);
        }
        LimitDefinition definition = atCostOne.get(limit);
        if (definition == null) {
            if (atCostOne.size() >= REMEMBERED_LIMITS) {
                atCostOne.clear();
            }
            definition = newDefinition(limit, 1);
            atCostOne.put(limit, definition);
        }
        return definition;
    }

    private static LimitDefinition newDefinition(RateLimit limit, long cost) {
        return LimitDefinition.builder(limit.name(), limit.limit(), limit.window().toMillis())
                .algorithm(limit.algorithm()).failureMode(limit.failureMode()).cost(cost).burst(limit.burst())
                .calendar(limit.period(), limit.timeZone() == null ? null : limit.timeZone().getId(), limit.anchorDay())
                .build();
    }

    private static String tag(String tenant) {
        return TenantTags.forTenant(Objects.requireNonNull(tenant, "tenant"));
    }
}
