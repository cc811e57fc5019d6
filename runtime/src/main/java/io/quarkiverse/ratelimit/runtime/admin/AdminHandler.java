package io.quarkiverse.ratelimit.runtime.admin;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;

import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.http.ProblemDetails;
import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The administration endpoints, for identities with the configured role:
 *
 * <pre>
 * GET    {base}/policies                                   the policies run-time limits can name
 * GET    {base}/tenants/{tenant}/limits                    the tenant's run-time limits
 * PUT    {base}/tenants/{tenant}/limits/{policy}           {"limit": 5000}: set one
 * DELETE {base}/tenants/{tenant}/limits/{policy}           remove one
 * GET    {base}/tenants/{tenant}/policies/{policy}         what the tenant has left
 * DELETE {base}/tenants/{tenant}/policies/{policy}/counters  forget what it consumed
 * PUT    {base}/tenants/{tenant}/blocked                   refuse all its calls (403)
 * DELETE {base}/tenants/{tenant}/blocked                   lift that
 * </pre>
 */
public class AdminHandler implements Handler<RoutingContext> {

    private final String base;

    public AdminHandler(String base) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    @Override
    public void handle(RoutingContext context) {
        String role = Arc.container().instance(RateLimitConfig.class).get().admin().role();
        QuarkusHttpUser.getSecurityIdentity(context, null).subscribe().with(identity -> {
            if (identity == null || identity.isAnonymous()) {
                problem(context, 401, "Authentication is required");
            } else if (!identity.hasRole(role)) {
                problem(context, 403, "The role " + role + " is required");
            } else {
                route(context, Arc.container().instance(RateLimitAdmin.class).get());
            }
        }, failure -> problem(context, 401, "Authentication failed"));
    }

    private void route(RoutingContext context, RateLimitAdmin admin) {
        String path = context.normalizedPath();
        String[] segments = path.length() > base.length() ? path.substring(base.length() + 1).split("/") : new String[0];
        HttpMethod method = context.request().method();
        try {
            if (segments.length == 1 && segments[0].equals("policies") && method == HttpMethod.GET) {
                json(context, 200, new JsonArray(admin.policies()).encode());
            } else if (segments.length == 3 && segments[0].equals("tenants") && segments[2].equals("blocked")
                    && (method == HttpMethod.PUT || method == HttpMethod.DELETE)) {
                String tenant = decode(segments[1]);
                reply(context, () -> (method == HttpMethod.PUT ? admin.block(tenant) : admin.unblock(tenant))
                        .replaceWith(""), 204);
            } else if (segments.length >= 3 && segments[0].equals("tenants")) {
                String tenant = decode(segments[1]);
                String policy = segments.length > 3 ? decode(segments[3]) : null;
                tenantRoute(context, admin, method, tenant, segments[2], policy, segments.length);
            } else {
                problem(context, 404, "No such administration endpoint");
            }
        } catch (IllegalArgumentException e) {
            problem(context, 404, e.getMessage());
        }
    }

    private void tenantRoute(RoutingContext context, RateLimitAdmin admin, HttpMethod method, String tenant,
            String collection, String policy, int segments) {
        if (collection.equals("limits") && segments == 3 && method == HttpMethod.GET) {
            reply(context, () -> admin.limits(tenant).map(limits -> new JsonObject(new LinkedHashMap<>(limits)).encode()),
                    200);
        } else if (collection.equals("limits") && segments == 4 && method == HttpMethod.PUT) {
            long limit = requestedLimit(context.body().buffer());
            if (limit <= 0) {
                problem(context, 400, "The body must be {\"limit\": <units per window, greater than zero>}");
            } else {
                reply(context, () -> admin.setLimit(tenant, policy, limit).replaceWith(""), 204);
            }
        } else if (collection.equals("limits") && segments == 4 && method == HttpMethod.DELETE) {
            reply(context, () -> admin.removeLimit(tenant, policy).replaceWith(""), 204);
        } else if (collection.equals("policies") && segments == 4 && method == HttpMethod.GET) {
            reply(context, () -> admin.status(tenant, policy).map(AdminHandler::status), 200);
        } else if (collection.equals("policies") && segments == 5 && method == HttpMethod.DELETE) {
            reply(context, () -> admin.reset(tenant, policy).replaceWith(""), 204);
        } else {
            problem(context, 404, "No such administration endpoint");
        }
    }

    /** The limit of a PUT body (read by the route's body handler), 0 when there is none. */
    private static long requestedLimit(Buffer body) {
        try {
            return body == null ? 0 : new JsonObject(body).getLong("limit", 0L);
        } catch (DecodeException | ClassCastException e) {
            return 0;
        }
    }

    private static String status(List<RateLimitDecision> decisions) {
        JsonArray array = new JsonArray();
        for (RateLimitDecision decision : decisions) {
            array.add(new JsonObject()
                    .put("name", decision.limitName())
                    .put("limit", decision.limit())
                    .put("windowSeconds", decision.window().toSeconds())
                    .put("remaining", decision.remaining())
                    .put("resetMillis", decision.resetAfter().toMillis())
                    .put("degraded", decision.degraded()));
        }
        return array.encode();
    }

    private static void reply(RoutingContext context, Supplier<Uni<String>> body, int status) {
        Uni.createFrom().<String> deferred(body::get).subscribe().with(json -> {
            if (status == 204) {
                context.response().setStatusCode(204).end();
            } else {
                json(context, status, json);
            }
        }, failure -> problem(context, failure instanceof IllegalArgumentException ? 404 : 503,
                failure instanceof IllegalArgumentException ? failure.getMessage() : "Redis is unavailable"));
    }

    private static void json(RoutingContext context, int status, String body) {
        context.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }

    private static void problem(RoutingContext context, int status, String detail) {
        context.response().setStatusCode(status).putHeader("Content-Type", ProblemDetails.MEDIA_TYPE)
                .end(new ProblemDetails(status, status == 404 ? "Not Found" : "Error", detail).toJson());
    }

    private static String decode(String segment) {
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
