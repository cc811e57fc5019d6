package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitUsage;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.key.KeyGroup;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeLimits;
import io.quarkiverse.ratelimit.runtime.policy.TenantPlans;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
import io.smallrye.mutiny.Uni;

/**
 * A tenant's own usage ({@code RateLimiter.usage}): every per-tenant limit of the application's annotations and
 * policies that is not split by a parameter nor switched off for the tenant, with the values and mode the tenant's
 * calls are decided by (its plan, its run-time limit, the switches and rollout), each read at cost 0 from the counter
 * its calls write, the same key a decision names. Reading writes nothing,
 * so asking counts against no limit. A limit counted under several endpoints' names is listed once per counter.
 */
@Singleton
public class TenantUsage {

    private final RateLimitKeys keys;
    private final TenantPlans plans;
    private final EffectiveLimits configured;
    private final RunTimeLimits runTimeLimits;
    private final DecisionGuard guard;
    private final LimitModes modes;

    TenantUsage(RateLimitKeys keys, TenantPlans plans, EffectiveLimits configured, RunTimeLimits runTimeLimits,
            DecisionGuard guard, LimitModes modes) {
        this.modes = modes;
        this.keys = keys;
        this.plans = plans;
        this.configured = configured;
        this.runTimeLimits = runTimeLimits;
        this.guard = guard;
    }

    /** The tenant's limits, what is left of each and when it resets, as its calls are decided now. */
    public Uni<List<RateLimitUsage>> of(String tenant) {
        return of(Objects.requireNonNull(tenant, "tenant"), TenantTags.forTenant(tenant));
    }

    /** {@link #of(String)} of a tenant already resolved: its name and the hash tag of its keys. */
    public Uni<List<RateLimitUsage>> of(String tenant, String tag) {
        Map<String, LimitDefinition> owned = owned(tenant, tag);
        List<KeyGroup> groups = KeyGroup.byHashTag(owned);
        return plans.plan(tenant, null).flatMap(plan -> look(groups, plan, tag)).map(decisions -> {
            List<RateLimitUsage> usage = new ArrayList<>(decisions.size());
            int at = 0;
            for (KeyGroup group : groups) {
                for (LimitDefinition limit : group.limits()) { // look answers in the groups' order
                    RateLimitDecision state = decisions.get(at++);
                    usage.add(new RateLimitUsage(state.limitName(), state.limit(), state.window(), state.remaining(),
                            state.resetAfter(), !state.allowed(), modes.mode(limit, tenant)));
                }
            }
            return List.copyOf(usage);
        });
    }

    /**
     * Each group's counters read at cost 0 (consuming nothing), with the values a call decides them by: {@code plan}'s
     * (none when {@code null}) and the run-time limits of {@code tenantTag} (none when {@code null}: a call without a
     * tenant has neither). The admin's status reads its subject's counters so too.
     */
    public Uni<List<RateLimitDecision>> look(List<KeyGroup> groups, String plan, String tenantTag) {
        if (groups.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Uni<List<RateLimitDecision>>> reads = new ArrayList<>(groups.size());
        for (KeyGroup group : groups) {
            List<LimitDefinition> probe = new ArrayList<>(group.limits().size());
            for (LimitDefinition limit : group.limits()) {
                probe.add((plan == null ? limit : configured.configure(limit, plan)).withCost(0));
            }
            reads.add(guard.look(group.keys(), tenantTag == null ? probe : runTimeLimits.apply(probe, tenantTag)));
        }
        return Uni.join().all(reads).andFailFast().map(decided -> {
            List<RateLimitDecision> all = new ArrayList<>();
            decided.forEach(all::addAll);
            return List.copyOf(all);
        });
    }

    /**
     * The tenant's counters (key to limit) of per-tenant limits not split by a parameter and not switched off for it,
     * each key once.
     */
    private Map<String, LimitDefinition> owned(String tenant, String tag) {
        Map<String, LimitDefinition> owned = new LinkedHashMap<>();
        for (EffectiveMethod method : configured.all().values()) {
            MethodLimits limits = method.limits();
            List<String> callKeys = null;
            for (int i = 0; i < limits.getLimits().size(); i++) {
                LimitDefinition limit = limits.getLimits().get(i);
                if (limit.getScope() != Scope.TENANT || !limit.getKeyParameters().isEmpty()
                        || modes.mode(limit, tenant) == Mode.OFF) {
                    continue;
                }
                if (callKeys == null) {
                    callKeys = keys.keys(limits, tag, tag, null);
                }
                owned.putIfAbsent(callKeys.get(i), limit);
            }
        }
        return owned;
    }
}
