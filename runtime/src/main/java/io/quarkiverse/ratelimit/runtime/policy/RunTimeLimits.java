package io.quarkiverse.ratelimit.runtime.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.smallrye.mutiny.Uni;

/**
 * Tenants' run-time limits and blocks, set by operators ({@code RateLimitAdmin}) and kept with the other run-time
 * settings ({@link RunTimeSettings}: in Redis, a copy on every instance, changes announced): a change applies at once
 * on the instance that made it and within milliseconds on every other. A tenant's run-time limit replaces the limit of
 * every per-tenant limit that uses the policy (or, without a policy, is so named), whatever its plan.
 */
@Singleton
public class RunTimeLimits {

    /** The field of a blocked tenant; no policy name starts with {@code ~}. */
    private static final String BLOCKED = "~blocked";

    private final RunTimeSettings settings;

    RunTimeLimits(RunTimeSettings settings) {
        this.settings = settings;
    }

    /** The limits with the tenant's run-time values applied; the same object when it has none. */
    public MethodLimits apply(MethodLimits limits, String tenantTag) {
        Map<String, Long> tenantLimits = settings.tenant(tenantTag);
        if (tenantLimits == null) {
            return limits;
        }
        List<LimitDefinition> applied = apply(limits.getLimits(), tenantLimits);
        return applied == limits.getLimits() ? limits : limits.withLimits(applied);
    }

    /** The limits of one tenant with its run-time values applied; the same list when it has none. */
    public List<LimitDefinition> apply(List<LimitDefinition> limits, String tenantTag) {
        Map<String, Long> tenantLimits = settings.tenant(tenantTag);
        return tenantLimits == null ? limits : apply(limits, tenantLimits);
    }

    private static List<LimitDefinition> apply(List<LimitDefinition> limits, Map<String, Long> tenantLimits) {
        List<LimitDefinition> applied = null;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            Long value = limit.getScope() == Scope.TENANT ? tenantLimits.get(limit.overrideName()) : null;
            if (value != null && value != limit.getLimit()) {
                if (applied == null) {
                    applied = new ArrayList<>(limits);
                }
                applied.set(i, limit.withLimit(value));
            }
        }
        return applied == null ? limits : applied;
    }

    /** Stores a tenant's limit for a policy: at once on this instance, within milliseconds on every other. */
    public Uni<Void> set(String tenantTag, String policy, long limit) {
        return settings.setTenant(field(tenantTag, policy), limit);
    }

    public Uni<Void> remove(String tenantTag, String policy) {
        return settings.removeTenant(field(tenantTag, policy));
    }

    /** A tenant's run-time limits, by policy, as Redis holds them now. */
    public Uni<Map<String, Long>> read(String tenantTag) {
        return settings.readTenant(tenantTag).map(stored -> {
            Map<String, Long> limits = new TreeMap<>(stored);
            limits.remove(BLOCKED);
            return limits;
        });
    }

    /** Blocks or unblocks a tenant: every limited call of a blocked tenant is refused with 403. */
    public Uni<Void> block(String tenantTag, boolean blocked) {
        return blocked ? settings.setTenant(field(tenantTag, BLOCKED), 1) : remove(tenantTag, BLOCKED);
    }

    /** Whether the tenant is blocked at run time (as this instance last saw it). */
    public boolean isBlocked(String tenantTag) {
        Map<String, Long> tenant = settings.tenant(tenantTag);
        return tenant != null && tenant.containsKey(BLOCKED);
    }

    /** Tenant tags and policy names never contain a space (both are escaped or validated). */
    private static String field(String tenantTag, String policy) {
        return tenantTag + ' ' + policy;
    }
}
