package io.quarkiverse.ratelimit.runtime.policy;

import java.util.Map;
import java.util.Set;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.PlanResolver;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkus.arc.InjectableInstance;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Tenants' plans ({@code quarkus.rate-limit.tenants.<tenant>.plan}, else the application's {@link PlanResolver}) and
 * access ({@code exempt-tenants}, {@code blocked-tenants}).
 */
@Singleton
public class TenantPlans {

    private final Map<String, String> configured;
    private final Set<String> plans;
    private final InjectableInstance<PlanResolver> resolver;
    private final Set<String> exempt;
    private final Set<String> blocked;

    TenantPlans(RateLimitConfig config, InjectableInstance<PlanResolver> resolver) {
        this.configured = new java.util.HashMap<>();
        config.tenants().forEach((tenant, settings) -> settings.plan().ifPresent(plan -> configured.put(tenant, plan)));
        this.plans = Set.copyOf(config.plans().keySet());
        this.resolver = resolver;
        this.exempt = Set.copyOf(config.exemptTenants().orElse(Set.of()));
        this.blocked = Set.copyOf(config.blockedTenants().orElse(Set.of()));
    }

    /** The tenant's plan, {@code null} for none (or one that is not configured: the policy's own values apply). */
    public Uni<String> plan(String tenant, RoutingContext request) {
        String plan = configured.get(tenant);
        if (plan != null || !resolver.isResolvable()) {
            return Uni.createFrom().item(plan);
        }
        return resolver.get().resolve(tenant, request)
                .map(resolved -> resolved != null && plans.contains(resolved) ? resolved : null);
    }

    /** Whether the application resolves plans itself: its {@link PlanResolver} may read anything of a request. */
    public boolean readsRequests() {
        return resolver.isResolvable();
    }

    public boolean isExempt(String tenant) {
        return exempt.contains(tenant);
    }

    public boolean isBlocked(String tenant) {
        return blocked.contains(tenant);
    }
}
