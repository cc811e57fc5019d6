package io.quarkiverse.ratelimit.runtime.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.ReactiveRateLimitAdmin;
import io.quarkiverse.ratelimit.RefusedCaller;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkiverse.ratelimit.runtime.decide.TenantUsage;
import io.quarkiverse.ratelimit.runtime.key.KeyGroup;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.policy.CodeLimits;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeLimits;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeSwitches;
import io.quarkiverse.ratelimit.runtime.policy.TenantPlans;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
import io.quarkiverse.ratelimit.runtime.tenant.ClientAddresses;
import io.quarkiverse.ratelimit.runtime.watch.RefusedMost;
import io.smallrye.mutiny.Uni;

/** The {@link ReactiveRateLimitAdmin} bean: run-time limits shared through Redis ({@link RunTimeLimits}). */
@Singleton
public class RedisRateLimitAdmin implements ReactiveRateLimitAdmin {

    private final DecisionGuard guard;
    private final EffectiveLimits configured;
    private final TenantPlans plans;
    private final RunTimeLimits runTimeLimits;
    private final RunTimeSwitches runTimeSwitches;
    private final Map<String, List<LimitDefinition>> limitsByPolicy;
    private final SubjectCounters counters;
    private final CodeLimitCounters codeCounters;
    private final TenantUsage usage;
    private final RefusedMost refusedMost;
    /** Every policy, and the name of every limit without one: what a switch can name. */
    private final Set<String> switchable = new TreeSet<>();

    RedisRateLimitAdmin(DecisionGuard guard, RateLimitKeys keys, EffectiveLimits configured,
            TenantPlans plans, RunTimeLimits runTimeLimits, RunTimeSwitches runTimeSwitches,
            ClientAddresses clientAddresses, CodeLimits codeLimits, TenantUsage usage, RefusedMost refusedMost) {
        this.usage = usage;
        this.refusedMost = refusedMost;
        this.codeCounters = new CodeLimitCounters(codeLimits, keys);
        this.runTimeLimits = runTimeLimits;
        this.runTimeSwitches = runTimeSwitches;
        this.guard = guard;
        this.configured = configured;
        this.plans = plans;
        this.limitsByPolicy = limitsByOverrideName(configured);
        this.counters = new SubjectCounters(configured, keys, clientAddresses);
        configured.all().values().forEach(method -> method.limits().getLimits()
                .forEach(limit -> switchable.add(limit.overrideName())));
    }

    @Override
    public Uni<Void> setLimit(String tenant, String policy, long limit) {
        String invalid = LimitRules.limit(limit);
        if (invalid != null) {
            throw new IllegalArgumentException("A limit of " + limit + " is not valid; " + invalid);
        }
        for (LimitDefinition affected : perTenantLimits(policy)) {
            String invalidFor = LimitRules.limit(limit, affected.getAlgorithm());
            if (invalidFor != null) {
                throw new IllegalArgumentException("A limit of " + limit + " is not valid for '" + affected.getName()
                        + "'; " + invalidFor);
            }
            long capacity = affected.getBurst() > 0 ? affected.getBurst() : limit;
            if (affected.getCost() > capacity) {
                throw new IllegalArgumentException("A call of '" + affected.getName() + "' costs " + affected.getCost()
                        + ", so its limit must be at least that, not " + limit);
            }
        }
        return runTimeLimits.set(tag(tenant), policy, limit);
    }

    @Override
    public Uni<Void> removeLimit(String tenant, String policy) {
        perTenantLimits(policy);
        return runTimeLimits.remove(tag(tenant), policy);
    }

    @Override
    public Uni<Map<String, Long>> limits(String tenant) {
        return runTimeLimits.read(tag(tenant));
    }

    @Override
    public Uni<List<RateLimitDecision>> status(RateLimitSubject subject, String policy) {
        if (!counters.knows(policy)) {
            // no plan: a limit made in code is decided with the values its code gives
            return codeCounters.of(subject, policy, counters.known())
                    .flatMap(groups -> usage.look(groups, null, tag(subject.name())));
        }
        List<KeyGroup> groups = counters.of(subject, policy);
        if (subject.kind() != RateLimitSubject.Kind.TENANT) {
            return usage.look(groups, null, null); // a call without a tenant has no plan and no run-time limits
        }
        return plans.plan(subject.name(), null).flatMap(plan -> usage.look(groups, plan, tag(subject.name())));
    }

    @Override
    public Uni<List<RefusedCaller>> refusedMost(Duration period, int top) {
        long minutes = period.toMinutes();
        if (period.isNegative() || !period.equals(Duration.ofMinutes(minutes)) || minutes < 1
                || minutes > RefusedMost.MAX_MINUTES) {
            throw new IllegalArgumentException("A period of " + period + " cannot be read: whole minutes, 1 to "
                    + RefusedMost.MAX_MINUTES);
        }
        if (top < 1 || top > 1000) {
            throw new IllegalArgumentException("The top " + top + " cannot be read: 1 to 1000 callers");
        }
        return refusedMost.read((int) minutes, top);
    }

    @Override
    public Uni<Map<String, Long>> leased(RateLimitSubject subject, String policy) {
        return groups(subject, policy).flatMap(this::leased);
    }

    /** The subject's counters of {@code policy}: configured limits', or, for a policy none names, code limits'. */
    private Uni<List<KeyGroup>> groups(RateLimitSubject subject, String policy) {
        return counters.knows(policy) ? Uni.createFrom().item(counters.of(subject, policy))
                : codeCounters.of(subject, policy, counters.known());
    }

    private Uni<Map<String, Long>> leased(List<KeyGroup> groups) {
        List<Uni<List<Long>>> reads = new ArrayList<>(groups.size());
        for (KeyGroup group : groups) {
            reads.add(guard.leased(group.keys(), group.limits()));
        }
        return Uni.join().all(reads).andFailFast().map(units -> {
            Map<String, Long> byLimit = new LinkedHashMap<>();
            for (int g = 0; g < groups.size(); g++) {
                List<LimitDefinition> limits = groups.get(g).limits();
                for (int i = 0; i < limits.size(); i++) {
                    byLimit.merge(limits.get(i).getName(), units.get(g).get(i), Long::sum);
                }
            }
            return byLimit;
        });
    }

    @Override
    public Uni<Integer> reset(RateLimitSubject subject, String policy) {
        return groups(subject, policy).flatMap(this::reset);
    }

    private Uni<Integer> reset(List<KeyGroup> groups) {
        List<Uni<Integer>> resets = new ArrayList<>();
        for (KeyGroup group : groups) {
            resets.add(guard.reset(group.keys(), group.limits()));
        }
        return Uni.join().all(resets).andFailFast().map(deleted -> deleted.stream().mapToInt(Integer::intValue).sum());
    }

    @Override
    public Uni<Void> block(RateLimitSubject subject) {
        return runTimeLimits.block(counters.tag(subject), true);
    }

    @Override
    public Uni<Void> unblock(RateLimitSubject subject) {
        return runTimeLimits.block(counters.tag(subject), false);
    }

    @Override
    public List<String> policies() {
        return List.copyOf(limitsByPolicy.keySet());
    }

    @Override
    public Uni<Void> setSwitches(String policy, Mode mode, Integer rolloutPercentage, FailureMode failureMode) {
        String name = switchedName(policy);
        Map<String, String> settings = new LinkedHashMap<>();
        if (mode != null) {
            settings.put(LimitModes.MODE, ConfigSpelling.of(mode));
        }
        if (rolloutPercentage != null) {
            if (rolloutPercentage < 0 || rolloutPercentage > 100) {
                throw new IllegalArgumentException("A rollout percentage is between 0 and 100, not " + rolloutPercentage);
            }
            settings.put(LimitModes.ROLLOUT_PERCENTAGE, rolloutPercentage.toString());
        }
        if (failureMode != null) {
            if (failureMode == FailureMode.DEFAULT || policy == null) {
                throw new IllegalArgumentException(policy == null
                        ? "The failure mode of every limit is quarkus.rate-limit.failure-mode; switch a policy or limit"
                        : "A failure mode is local, fail-open or fail-closed, not default");
            }
            settings.put(LimitModes.FAILURE_MODE, ConfigSpelling.of(failureMode));
        }
        if (settings.isEmpty()) {
            throw new IllegalArgumentException("Nothing to switch: give a mode, a rollout percentage or a failure mode");
        }
        return runTimeSwitches.set(name, settings);
    }

    @Override
    public Uni<Void> clearSwitches(String policy) {
        return runTimeSwitches.clear(switchedName(policy), LimitModes.SETTINGS);
    }

    @Override
    public Map<String, Map<String, Object>> switches() {
        Map<String, Map<String, Object>> byName = new TreeMap<>();
        runTimeSwitches.switches().forEach((field, value) -> {
            int separator = field.lastIndexOf(' ');
            String setting = field.substring(separator + 1);
            byName.computeIfAbsent(field.substring(0, separator), name -> new TreeMap<>())
                    .put(LimitModes.settingName(setting), LimitModes.ROLLOUT_PERCENTAGE.equals(setting)
                            ? (Object) Integer.valueOf(value)
                            : value);
        });
        return byName;
    }

    /** {@code *} for every limit; else a policy or limit name of this application. */
    private String switchedName(String policy) {
        if (policy == null) {
            return LimitModes.EVERY_LIMIT;
        }
        if (!switchable.contains(policy)) {
            throw new UnknownLimitException("No limit uses the policy or name '" + policy + "'; known: " + switchable);
        }
        return policy;
    }

    /** The distinct per-tenant limits {@code policy} names (one per limit name and endpoint). */
    private List<LimitDefinition> perTenantLimits(String policy) {
        Objects.requireNonNull(policy, "policy");
        List<LimitDefinition> limits = limitsByPolicy.get(policy);
        if (limits == null) {
            throw new UnknownLimitException("No per-tenant limit uses the policy or name '" + policy + "'; known: "
                    + policies());
        }
        return limits;
    }

    /** The distinct per-tenant limits by the name their run-time limit uses. */
    private static Map<String, List<LimitDefinition>> limitsByOverrideName(EffectiveLimits configured) {
        Map<String, Map<String, LimitDefinition>> byName = new TreeMap<>();
        configured.all().values().forEach(method -> {
            for (LimitDefinition limit : method.limits().getLimits()) {
                if (limit.getScope() == Scope.TENANT) {
                    byName.computeIfAbsent(limit.overrideName(), name -> new LinkedHashMap<>())
                            .putIfAbsent(limit.getName() + ":" + limit.getEndpoint(), limit);
                }
            }
        });
        Map<String, List<LimitDefinition>> limits = new TreeMap<>();
        byName.forEach((name, distinct) -> limits.put(name, List.copyOf(distinct.values())));
        return java.util.Collections.unmodifiableMap(limits);
    }

    private static String tag(String tenant) {
        return TenantTags.forTenant(Objects.requireNonNull(tenant, "tenant"));
    }

}
