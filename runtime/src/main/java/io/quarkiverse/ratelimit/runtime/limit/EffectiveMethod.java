package io.quarkiverse.ratelimit.runtime.limit;

import java.util.ArrayList;
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
    private final RequestParameter[] requestArguments;

    /** @param tenantPathParameter the parameter that names the tenant for the path-parameter tenant source */
    EffectiveMethod(MethodLimits limits, Map<String, MethodLimits> byPlan, TenantRule tenantRule,
            String tenantPathParameter) {
        this.limits = limits;
        this.byPlan = Map.copyOf(byPlan);
        this.tenantRule = tenantRule;
        this.requestArguments = requestArguments(limits, tenantRule, tenantPathParameter);
    }

    /**
     * The request parameter each argument position holds that the call's keys or tenant read, where the request holds
     * every such argument as the method receives it ({@link RequestParameter}): then a call can be decided from the
     * request before its arguments exist. Empty when the call reads no argument; {@code null} when it reads one the
     * request does not hold as such (a body value, a converted type, a parameter with a default), and only the
     * method's arguments can decide it.
     */
    public RequestParameter[] requestArguments() {
        return requestArguments;
    }

    private static RequestParameter[] requestArguments(MethodLimits limits, TenantRule rule,
            String tenantPathParameter) {
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
            return new RequestParameter[0];
        }
        RequestParameter[] parameters = new RequestParameter[read.last() + 1];
        for (int position : read) {
            parameters[position] = limits.getRequestParameters().get(position);
            if (parameters[position] == null) {
                return null;
            }
        }
        return parameters;
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
