package io.quarkiverse.ratelimit.runtime;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.runtime.fallback.ResilientRateLimiter;
import io.quarkiverse.ratelimit.runtime.http.RateLimitHeaders;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Admits or refuses one call of a rate-limited method: resolves the tenant, takes the decisions on Redis, puts the
 * rate-limit headers on the HTTP response (if there is one) and fails with {@link RateLimitExceededException} when a
 * limit refuses.
 */
@Singleton
public class RateLimitEnforcer {

    private final RequestTenantResolver tenants;
    private final ResilientRateLimiter limiter;
    private final CurrentVertxRequest currentRequest;

    RateLimitEnforcer(RequestTenantResolver tenants, ResilientRateLimiter limiter, CurrentVertxRequest currentRequest) {
        this.tenants = tenants;
        this.limiter = limiter;
        this.currentRequest = currentRequest;
    }

    public Uni<Void> admit(MethodLimits limits) {
        RoutingContext request = currentRequest();
        return tenants.resolveTag(request)
                .flatMap(tenant -> limiter.acquire(tenant, limits.getLimits()))
                .map(decisions -> {
                    if (request != null) {
                        RateLimitHeaders.attach(request, limits, decisions);
                    }
                    for (RateLimitDecision decision : decisions) {
                        if (!decision.allowed()) {
                            throw new RateLimitExceededException(decisions);
                        }
                    }
                    return null;
                });
    }

    private RoutingContext currentRequest() {
        return Arc.container().requestContext().isActive() ? currentRequest.getCurrent() : null;
    }
}
