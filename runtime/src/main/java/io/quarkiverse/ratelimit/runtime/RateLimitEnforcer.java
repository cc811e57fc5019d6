package io.quarkiverse.ratelimit.runtime;


import java.time.Duration;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.fallback.ResilientRateLimiter;
import io.quarkiverse.ratelimit.runtime.http.RateLimitHeaders;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
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
    private final RedisRateLimiter redis;
    private final Duration refundTimeout;
    private final RateLimitKeys keys;

    RateLimitEnforcer(RequestTenantResolver tenants, ResilientRateLimiter limiter, RedisRateLimiter redis,
            RateLimitConfig config, RateLimitKeys keys) {
        this.keys = keys;
        this.tenants = tenants;
        this.limiter = limiter;
        this.redis = redis;
        this.refundTimeout = config.decisionTimeout();
    }

    /** Admits the call, or fails with {@link RateLimitExceededException}; the admission can refund the call. */
    public Uni<Admission> admit(MethodLimits limits) {
        RoutingContext request = tenants.currentRequest();
        Uni<String> tenant = limits.needsTenant() ? tenants.resolveTag(request) : Uni.createFrom().nullItem();
        return tenant
                .map(tenantTag -> this.keys.keys(limits, tenantTag,
                        limits.needsClientAddress() ? RequestTenantResolver.clientTag(request) : null))
                .flatMap(keys -> limiter.acquire(keys, limits.getLimits()).map(decisions -> {
                    if (request != null) {
                        RateLimitHeaders.attach(request, limits, decisions);
                    }
                    boolean degraded = false;
                    for (RateLimitDecision decision : decisions) {
                        if (!decision.allowed()) {
                            throw new RateLimitExceededException(decisions);
                        }
                        degraded |= decision.degraded();
                    }
                    return admission(request, keys, limits, degraded);
                }));
    }

    private Admission admission(RoutingContext request, List<String> keys, MethodLimits limits, boolean degraded) {
        if (degraded || !limits.refunds()) {
            return Admission.NONE;
        }
        Admission admission = new Admission(redis, keys, limits.getLimits(), refundTimeout);
        if (request != null && admission.refundsOnServerError()) {
            // at the end, when the status is final (at headers-end Quarkus REST may not have set it yet)
            request.addEndHandler(ignored -> {
                if (request.response().getStatusCode() >= 500) {
                    admission.refundServerError().subscribe().with(done -> {
                    });
                }
            });
        }
        return admission;
    }
}
