package io.quarkiverse.ratelimit.runtime.http;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.MissingTenant;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitUsage;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.TenantBlockedException;
import io.quarkiverse.ratelimit.TenantRequiredException;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.decide.TenantUsage;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.TenantRule;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The usage endpoint ({@code quarkus.rate-limit.usage.enabled}): {@code GET} answers the calling tenant's own limits
 * ({@link TenantUsage}), read without counting against them, as a JSON array of {@code name}, {@code limit},
 * {@code windowSeconds}, {@code remaining}, {@code resetSeconds}, {@code inDebt} and {@code mode}. The tenant is found by the
 * application's tenant rule, as a limited call finds it, except that a call without one is refused (its missing
 * status): there is nobody's usage to show. Reading is itself limited, per tenant ({@code usage.limit} per
 * {@code usage.window}), through {@link RateLimiter}, so a blocked tenant is refused (403) by the gate every limited
 * call crosses, and a tenant polling in a loop gets 429s, not Redis's time.
 */
@Singleton
public class TenantUsageEndpoint {

    private static final Logger LOG = Logger.getLogger(TenantUsageEndpoint.class);

    private final RequestTenantResolver tenants;
    private final RateLimiter limiter;
    private final TenantUsage usage;
    /** The application's tenant rule, a call without a tenant refused. */
    private final TenantRule rule;
    private final RateLimit ownLimit;

    TenantUsageEndpoint(RequestTenantResolver tenants, RateLimiter limiter, TenantUsage usage, EffectiveLimits limits,
            RateLimitConfig config) {
        this.tenants = tenants;
        this.limiter = limiter;
        this.usage = usage;
        TenantRule application = limits.defaultTenantRule();
        this.rule = new TenantRule(application.source(), MissingTenant.REJECT, application.missingStatus());
        this.ownLimit = RateLimit.of("rate-limit-usage", config.usage().limit(), config.usage().window());
    }

    public void handle(RoutingContext request) {
        if (request.request().method() != HttpMethod.GET) {
            request.response().putHeader("Allow", "GET");
            problem(request, 405, "Method Not Allowed", "The usage endpoint answers GET");
            return;
        }
        tenants.resolve(rule, request, () -> QuarkusHttpUser.getSecurityIdentity(request, null))
                .flatMap(tenant -> limiter.tryAcquire(ownLimit, tenant.id()).flatMap(read -> {
                    if (!read.allowed()) {
                        return Uni.createFrom().item(() -> {
                            tooMany(request, read);
                            return null;
                        });
                    }
                    return usage.of(tenant.id(), tenant.tag()).map(limits -> {
                        answer(request, read, limits);
                        return null;
                    });
                }))
                .subscribe().with(ignored -> {
                }, failure -> failed(request, failure));
    }

    private static void answer(RoutingContext request, RateLimitDecision read, List<RateLimitUsage> limits) {
        JsonArray body = new JsonArray();
        for (RateLimitUsage limit : limits) {
            body.add(new JsonObject()
                    .put("name", limit.name())
                    .put("limit", limit.limit())
                    .put("windowSeconds", seconds(limit.window()))
                    .put("remaining", limit.remaining())
                    .put("resetSeconds", RateLimitHeaders.wholeSecondsUp(limit.resetAfter()))
                    .put("inDebt", limit.inDebt())
                    .put("mode", limit.mode().name().toLowerCase(Locale.ROOT)));
        }
        HttpServerResponse response = withHeaders(request, read);
        response.setStatusCode(200).putHeader("Content-Type", "application/json").end(body.encode());
    }

    private static void tooMany(RoutingContext request, RateLimitDecision read) {
        HttpServerResponse response = withHeaders(request, read);
        if (read.retryAfter() != null) {
            response.putHeader(RateLimitHeaders.RETRY_AFTER,
                    Long.toString(RateLimitHeaders.retryAfterSeconds(read.retryAfter())));
        }
        problem(request, 429, "Too Many Requests", "The usage of this tenant was read too often; try again later");
    }

    /** The response, with the headers of the endpoint's own limit in the configured style. */
    private static HttpServerResponse withHeaders(RoutingContext request, RateLimitDecision read) {
        HttpServerResponse response = request.response();
        String[] headers = RateLimitHeaders.headersOf(List.of(read));
        for (int i = 0; i < headers.length; i += 2) {
            response.putHeader(headers[i], headers[i + 1]);
        }
        return response;
    }

    private static void failed(RoutingContext request, Throwable failure) {
        if (failure instanceof TenantRequiredException missing) {
            problem(request, missing.status(), "Tenant Required", missing.getMessage());
        } else if (failure instanceof TenantBlockedException) {
            problem(request, 403, "Forbidden", "This tenant is blocked");
        } else if (failure instanceof RateLimiterUnavailableException) {
            problem(request, 503, "Service Unavailable", "The rate limiter cannot read the usage now; try again later");
        } else {
            LOG.errorf(failure, "The usage endpoint failed");
            problem(request, 500, "Internal Server Error", "The usage could not be read");
        }
    }

    private static void problem(RoutingContext request, int status, String title, String detail) {
        if (request.response().ended()) {
            return;
        }
        request.response().setStatusCode(status).putHeader("Content-Type", ProblemDetails.MEDIA_TYPE)
                .end(new ProblemDetails(status, title, detail).toJson());
    }

    /** Whole seconds when the window is, else the fraction (a window of 500 ms is 0.5). */
    private static Number seconds(Duration window) {
        if (window.toMillis() % 1000 == 0) {
            return window.toSeconds(); // not in a conditional expression: it would make every value a double
        }
        return window.toMillis() / 1000.0;
    }
}
