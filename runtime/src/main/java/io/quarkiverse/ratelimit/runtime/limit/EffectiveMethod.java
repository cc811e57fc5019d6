package io.quarkiverse.ratelimit.runtime.limit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One rate-limited method as configuration leaves it at start-up: its limits with the policies applied, the variant of
 * them for each plan, and how its tenant is found.
 */
public final class EffectiveMethod {

    private final MethodLimits limits;
    private final Map<String, MethodLimits> byPlan;
    private final TenantRule tenantRule;

    EffectiveMethod(MethodLimits limits, Map<String, MethodLimits> byPlan, TenantRule tenantRule) {
        this.limits = limits;
        this.byPlan = Map.copyOf(byPlan);
        this.tenantRule = tenantRule;
    }

    /** The limits for a tenant on {@code plan} ({@code null}: no plan): the plan's values where it has some. */
    public MethodLimits limits(String plan) {
        if (plan == null || byPlan.isEmpty()) {
            return limits;
        }
        return byPlan.getOrDefault(plan, limits);
    }

    /** The limits for tenants without a plan, then each plan's variant. */
    public List<MethodLimits> variants() {
        List<MethodLimits> variants = new ArrayList<>(1 + byPlan.size());
        variants.add(limits);
        variants.addAll(byPlan.values());
        return variants;
    }

    public MethodLimits limits() {
        return limits;
    }

    /** Whether some plan changes a limit of this method (else the plan need not be looked up). */
    public boolean dependsOnPlan() {
        return !byPlan.isEmpty();
    }

    /** {@code null} when no limit of the method is per tenant. */
    public TenantRule tenantRule() {
        return tenantRule;
    }
}
