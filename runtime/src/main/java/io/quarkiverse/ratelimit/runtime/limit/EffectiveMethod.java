package io.quarkiverse.ratelimit.runtime.limit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.quarkiverse.ratelimit.TenantSource;

/**
 * One rate-limited method as configuration leaves it at start-up: its limits with the policies applied, the variant of
 * them for each plan, and how its tenant is found.
 */
public final class EffectiveMethod {

    private final MethodLimits limits;
    private final Map<String, MethodLimits> byPlan;
    private final TenantRule tenantRule;
    private final String[] pathArguments;

    /** @param tenantPathParameter the parameter that names the tenant for the path-parameter tenant source */
    EffectiveMethod(MethodLimits limits, Map<String, MethodLimits> byPlan, TenantRule tenantRule,
            String tenantPathParameter) {
        this.limits = limits;
        this.byPlan = Map.copyOf(byPlan);
        this.tenantRule = tenantRule;
        this.pathArguments = pathArguments(limits, tenantRule, tenantPathParameter);
    }

    /**
     * The path parameter each argument position holds that the call's keys or tenant read, where every such argument is
     * a {@code String} path parameter: then a call can be decided from the matched request before its arguments exist.
     * Empty when the call reads no argument; {@code null} when it reads one the request does not hold as such (a query
     * or body value, a converted type), and only the method's arguments can decide it.
     */
    public String[] pathArguments() {
        return pathArguments;
    }

    private static String[] pathArguments(MethodLimits limits, TenantRule rule, String tenantPathParameter) {
        TreeSet<Integer> read = new TreeSet<>();
        limits.getLimits().forEach(limit -> read.addAll(limit.getKeyParameters()));
        if (rule != null && rule.source() == TenantSource.PATH_PARAMETER) {
            Integer position = limits.getParameters().get(tenantPathParameter);
            if (position == null) {
                return null; // fails start-up (RequestTenantResolver.checkUsable)
            }
            read.add(position);
        }
        if (read.isEmpty()) {
            return new String[0];
        }
        Map<Integer, String> byPosition = new HashMap<>();
        limits.getPathParameters().forEach((name, position) -> byPosition.putIfAbsent(position, name));
        String[] names = new String[read.last() + 1];
        for (int position : read) {
            names[position] = byPosition.get(position);
            if (names[position] == null) {
                return null;
            }
        }
        return names;
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
