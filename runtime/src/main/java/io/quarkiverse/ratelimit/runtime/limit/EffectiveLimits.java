package io.quarkiverse.ratelimit.runtime.limit;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.config.ConfigChecks;
import io.quarkiverse.ratelimit.runtime.config.PlanLimitConfig;
import io.quarkiverse.ratelimit.runtime.config.PolicyConfig;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.config.TenantConfig;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Applies the configuration to the limits recorded at build time, once, at start-up: each policy's values override the
 * annotation's, each plan gets its own variant of the limits that use a policy, and every method gets its tenant rule.
 * Whatever cannot work fails start-up with a {@link ConfigurationException} naming the property.
 */
@Singleton
public class EffectiveLimits {

    static final String PREFIX = "quarkus.rate-limit.";

    private final Map<String, EffectiveMethod> byMethodId = new HashMap<>();
    private final Map<Method, EffectiveMethod> byMethod = new ConcurrentHashMap<>();
    private final RateLimitConfig config;

    EffectiveLimits(DeclaredLimits methods, RateLimitConfig config) {
        this.config = config;
        ConfiguredNames.check(config, methods);
        Map<String, LimitDefinition> byName = new HashMap<>();
        methods.all().forEach((methodId, declared) -> {
            EffectiveMethod configured = configure(methodId, declared);
            for (LimitDefinition limit : configured.limits().getLimits()) {
                LimitDefinition earlier = byName.putIfAbsent(limit.getName(), limit);
                if (earlier != null && !SharedLimitNames.countAlike(earlier, limit)) {
                    throw new ConfigurationException("Limit '" + limit.getName() + "' is shared by several methods,"
                            + " which quarkus.rate-limit.policies." + limit.getPolicy() + ".* made disagree: " + earlier
                            + " and " + limit + "; " + SharedLimitNames.RULE,
                            Set.of(PREFIX + "policies"));
                }
            }
            byMethodId.put(methodId, configured);
        });
    }

    /** The configured limits of a method the interceptor was bound to; looked up once per method. */
    public EffectiveMethod forMethod(Method method) {
        EffectiveMethod configured = byMethod.get(method);
        if (configured == null) {
            configured = byMethod.computeIfAbsent(method, m -> {
                EffectiveMethod found = byMethodId.get(MethodIds.of(m));
                if (found == null) {
                    throw new IllegalStateException("No @RateLimited limits were recorded at build time for "
                            + MethodIds.of(m) + "; a method inherited from a superclass is only limited if it is"
                            + " annotated or overridden in the annotated class");
                }
                return found;
            });
        }
        return configured;
    }

    /** The sets of algorithms the calls of every method (and plan) use, as {@code RateLimitScripts} takes them. */
    public Set<Integer> algorithmSets() {
        Set<Integer> sets = new TreeSet<>();
        byMethodId.values().forEach(method -> method.variants().forEach(limits -> sets.add(limits.algorithmSet())));
        return sets;
    }

    /** Every configured method, by method id. */
    public Map<String, EffectiveMethod> all() {
        return byMethodId;
    }

    /** A limit as the policy configuration (and a plan's values, when {@code plan} is not null) leave it. */
    public LimitDefinition configure(LimitDefinition declared, String plan) {
        String policyName = declared.getPolicy();
        if (policyName == null) {
            return declared;
        }
        PolicyConfig policy = config.policies().get(policyName);
        String property = PREFIX + "policies." + policyName + ".";
        long limit = declared.getLimit();
        long windowMillis = declared.getWindowMillis();
        Algorithm algorithm = declared.getAlgorithm();
        long burst = declared.getBurst();
        long cost = declared.getCost();
        long maxWaitMillis = declared.getMaxWaitMillis();
        long toleranceMillis = declared.getLateSlotToleranceMillis();
        boolean adaptive = declared.isAdaptive();
        String timeZone = declared.getTimeZone();
        Scope scope = declared.getScope();
        FailureMode failureMode = declared.getFailureMode();
        TenantSource tenantSource = declared.getTenantSource();
        boolean burstConfigured = policy != null && policy.burst().isPresent();
        if (policy != null) {
            limit = policy.limit().orElse(limit);
            windowMillis = policy.window().map(window -> window.toMillis()).orElse(windowMillis);
            algorithm = policy.algorithm().orElse(algorithm);
            burst = policy.burst().orElse(burst);
            cost = policy.cost().orElse(cost);
            maxWaitMillis = policy.maxWait().map(Duration::toMillis).orElse(maxWaitMillis);
            toleranceMillis = policy.lateSlotTolerance().map(Duration::toMillis).orElse(toleranceMillis);
            adaptive = policy.adaptive().orElse(adaptive);
            if (policy.timeZone().isPresent()) {
                timeZone = policy.timeZone().get();
                ConfigChecks.timeZone(property + "time-zone", timeZone);
            }
            scope = policy.scope().orElse(scope);
            failureMode = policy.failureMode().orElse(failureMode);
            tenantSource = policy.tenant().source().orElse(tenantSource);
        }
        if (plan != null) {
            PlanLimitConfig planLimit = config.plans().get(plan).get(policyName);
            if (planLimit != null) {
                property = PREFIX + "plans." + plan + "." + policyName + ".";
                limit = planLimit.limit().orElse(limit);
                windowMillis = planLimit.window().map(window -> window.toMillis()).orElse(windowMillis);
                burst = planLimit.burst().orElse(burst);
                burstConfigured |= planLimit.burst().isPresent();
                if (planLimit.failureMode().isPresent()) {
                    failureMode = planLimit.failureMode().get();
                    ConfigChecks.notDefault(property + "failure-mode", failureMode);
                }
            }
        }
        if (policy == null && (limit <= 0 || windowMillis <= 0)) {
            throw new ConfigurationException("Policy '" + policyName + "' is used by @RateLimited limit '"
                    + declared.getName() + "' but not configured: set " + property + "limit and " + property + "window",
                    Set.of(property + "limit"));
        }
        rule(property + "limit", limit, LimitRules.limit(limit, algorithm));
        rule(property + "window", windowMillis == 0 ? "not set" : windowMillis + "ms",
                LimitRules.durationMillis(windowMillis));
        boolean algorithmConfigured = policy != null && policy.algorithm().isPresent();
        ConfiguredRules.withAlgorithm(property, algorithm, algorithmConfigured, "burst", "burst", burstConfigured, burst,
                declared.getName(), LimitRules.burst(burst, algorithm));
        rule(property + "cost", cost, LimitRules.cost(cost, limit, burst));
        boolean waitConfigured = policy != null && policy.maxWait().isPresent();
        ConfiguredRules.withAlgorithm(property, algorithm, algorithmConfigured, "max-wait", "maxWait", waitConfigured,
                maxWaitMillis + "ms", declared.getName(), LimitRules.maxWait(maxWaitMillis, algorithm));
        if (policy != null && policy.lateSlotTolerance().isPresent()) {
            rule(property + "late-slot-tolerance", policy.lateSlotTolerance().get(),
                    LimitRules.lateSlotTolerance(toleranceMillis));
        }
        if (policy != null && policy.failureMode().isPresent()) {
            ConfigChecks.notDefault(property + "failure-mode", failureMode);
        }
        ConfiguredRules.withAlgorithm(property, algorithm, algorithmConfigured, "algorithm", "period", false,
                declared.getCalendarPeriod(), declared.getName(),
                LimitRules.calendar(declared.getCalendarPeriod(), declared.getAnchorDay(), algorithm));
        return declared.toBuilder().limit(limit).window(windowMillis).algorithm(algorithm).burst(burst).cost(cost)
                .maxWait(maxWaitMillis).lateSlotTolerance(toleranceMillis).adaptive(adaptive)
                .calendar(declared.getCalendarPeriod(), timeZone, declared.getAnchorDay())
                .scope(scope).failureMode(failureMode).tenantSource(tenantSource).build();
    }

    /** A calendar window that names no time zone counts in {@code quarkus.rate-limit.time-zone}'s. */
    private LimitDefinition zoned(LimitDefinition limit) {
        if (limit.getAlgorithm() != Algorithm.CALENDAR_WINDOW || limit.getTimeZone() != null) {
            return limit;
        }
        ConfigChecks.timeZone(PREFIX + "time-zone", config.timeZone());
        return limit.toBuilder().calendar(limit.getCalendarPeriod(), config.timeZone(), limit.getAnchorDay()).build();
    }

    private EffectiveMethod configure(String methodId, MethodLimits declared) {
        List<LimitDefinition> limits = new ArrayList<>();
        for (LimitDefinition limit : declared.getLimits()) {
            limits.add(zoned(configure(limit, null)));
        }
        String waiting = WaitingCalls.violation(limits);
        if (waiting != null) {
            throw new ConfigurationException(methodId + ": " + waiting + " (set by its policies, "
                    + PREFIX + "policies.<policy>.algorithm and .max-wait)", Set.of(PREFIX + "policies"));
        }
        if (!declared.isOutgoing()) {
            for (LimitDefinition limit : limits) {
                if (limit.isAdaptive()) {
                    String property = PREFIX + "policies." + limit.getPolicy() + ".adaptive";
                    throw new ConfigurationException(property + " is true, but limit '" + limit.getName() + "' of "
                            + methodId + " is not a REST Client's: an adaptive limit learns from the 429 answers of the"
                            + " service a REST Client calls", Set.of(property));
                }
            }
        }
        MethodLimits configured = declared.withLimits(limits);
        Map<String, MethodLimits> byPlan = new HashMap<>();
        config.plans().forEach((plan, policies) -> {
            boolean changes = false;
            List<LimitDefinition> planLimits = new ArrayList<>();
            for (LimitDefinition limit : declared.getLimits()) {
                changes |= limit.getPolicy() != null && policies.containsKey(limit.getPolicy());
                planLimits.add(zoned(configure(limit, plan)));
            }
            if (changes) {
                byPlan.put(plan, declared.withLimits(planLimits));
            }
        });
        return new EffectiveMethod(configured, byPlan, tenantRule(methodId, limits), config.tenant().pathParameter());
    }

    /** The one tenant rule of a method's per-tenant limits; {@code null} when it has none. */
    private TenantRule tenantRule(String methodId, List<LimitDefinition> limits) {
        TenantRule rule = null;
        for (LimitDefinition limit : limits) {
            if (limit.getScope() != Scope.TENANT) {
                continue;
            }
            TenantRule limitRule = tenantRule(limit);
            if (rule != null && !rule.equals(limitRule)) {
                throw new ConfigurationException("The per-tenant limits of " + methodId + " find their tenant"
                        + " differently (" + rule + " and " + limitRule + "); one call has one tenant: give them the"
                        + " same tenant source and missing-tenant behaviour (annotation, quarkus.rate-limit.policies.<policy>"
                        + ".tenant.*), or make one of them a separate method",
                        Set.of(PREFIX + "tenant.source"));
            }
            rule = limitRule;
        }
        return rule;
    }

    /** The tenant rule of calls that follow only the global configuration ({@code @ConcurrencyLimited}). */
    public TenantRule defaultTenantRule() {
        return tenantRule(TenantSource.DEFAULT, null, "default");
    }

    private TenantRule tenantRule(LimitDefinition limit) {
        return tenantRule(limit.getTenantSource(),
                limit.getPolicy() == null ? null : config.policies().get(limit.getPolicy()), limit.getName());
    }

    private TenantRule tenantRule(TenantSource declared, PolicyConfig policy, String limitName) {
        TenantConfig global = config.tenant();
        TenantRule rule = TenantRule.of(declared,
                new TenantRule.Settings(global.source(), global.header().isPresent(), global.missing(),
                        global.missingStatus()),
                policy == null ? null
                        : new TenantRule.Settings(policy.tenant().source(), false, policy.tenant().missing(),
                                policy.tenant().missingStatus()));
        int status = rule.missingStatus();
        if (status < 400 || status > 599) {
            throw new ConfigurationException("The missing-tenant status of limit '" + limitName + "' is " + status
                    + ", but a refused call needs a 4xx or 5xx status", Set.of(PREFIX + "tenant.missing-status"));
        }
        return rule;
    }

    /** Fails start-up naming the property when {@code violation}, a {@link LimitRules} answer, is not null. */
    private static void rule(String property, Object value, String violation) {
        ConfiguredRules.rule(property, value, violation);
    }
}
