package io.quarkiverse.ratelimit.runtime.admin;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.ReactiveRateLimitAdmin;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.http.ProblemDetails;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
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
 * GET    {base}/switches                                   the run-time switches in force
 * PUT    {base}/switches                                   {"mode": "shadow", "rolloutPercentage": 25}: every limit
 * PUT    {base}/switches/{policy}                          {"mode": ..., "rolloutPercentage": ..., "failureMode": ...}
 * DELETE {base}/switches[/{policy}]                        back to configuration
 * </pre>
 *
 * A switch with a bad value or body, or naming no limit of the application, is a 400 and changes nothing.
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
                route(context, Arc.container().instance(ReactiveRateLimitAdmin.class).get());
            }
        }, failure -> problem(context, 401, "Authentication failed"));
    }

    private void route(RoutingContext context, ReactiveRateLimitAdmin admin) {
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
            } else if ((segments.length == 1 || segments.length == 2) && segments[0].equals("switches")) {
                switchesRoute(context, admin, method, segments.length == 2 ? decode(segments[1]) : null);
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

    private void tenantRoute(RoutingContext context, ReactiveRateLimitAdmin admin, HttpMethod method, String tenant,
            String collection, String policy, int segments) {
        if (collection.equals("limits") && segments == 3 && method == HttpMethod.GET) {
            reply(context, () -> admin.limits(tenant).map(limits -> new JsonObject(new LinkedHashMap<>(limits)).encode()),
                    200);
        } else if (collection.equals("limits") && segments == 4 && method == HttpMethod.PUT) {
            long limit = requestedLimit(context.body().buffer());
            String invalid = LimitRules.limit(limit);
            if (invalid != null) {
                problem(context, 400, "The body must be {\"limit\": <units per window>}; " + invalid);
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

    private void switchesRoute(RoutingContext context, ReactiveRateLimitAdmin admin, HttpMethod method, String policy) {
        if (method == HttpMethod.GET && policy == null) {
            json(context, 200, new JsonObject(new LinkedHashMap<>(admin.switches())).encode());
        } else if (method == HttpMethod.DELETE) {
            reply(context, () -> admin.clearSwitches(policy).replaceWith(""), 204);
        } else if (method == HttpMethod.PUT) {
            Switches requested;
            try {
                requested = Switches.of(context.body().buffer());
            } catch (IllegalArgumentException e) {
                problem(context, 400, e.getMessage());
                return;
            }
            try {
                Uni<Void> change = admin.setSwitches(policy, requested.mode(), requested.rolloutPercentage(),
                        requested.failureMode());
                reply(context, () -> change.replaceWith(""), 204);
            } catch (IllegalArgumentException e) {
                problem(context, 400, e.getMessage());
            }
        } else {
            problem(context, 404, "No such administration endpoint");
        }
    }

    /** A PUT body of the switches endpoints: each setting optional, nothing else allowed. */
    record Switches(Mode mode, Integer rolloutPercentage, FailureMode failureMode) {

        /** The settings' names in JSON, as GET answers them. */
        private static final List<String> SETTINGS = LimitModes.SETTINGS.stream().map(LimitModes::settingName).toList();

        static Switches of(Buffer body) {
            JsonObject json;
            try {
                json = body == null || body.length() == 0 ? null : new JsonObject(body);
            } catch (DecodeException | ClassCastException e) {
                json = null;
            }
            if (json == null) {
                throw new IllegalArgumentException("The body must be a JSON object: {\"mode\": \"enforce\" | \"shadow\""
                        + " | \"off\", \"rolloutPercentage\": 0 to 100, \"failureMode\": \"local\" | \"fail-open\""
                        + " | \"fail-closed\"}, each optional");
            }
            for (String field : json.fieldNames()) {
                if (!SETTINGS.contains(field)) {
                    throw new IllegalArgumentException("Unknown setting '" + field
                            + "'; the settings are mode, rolloutPercentage and failureMode");
                }
            }
            return new Switches(constant(json, "mode", Mode.class), percentage(json), constant(json, "failureMode",
                    FailureMode.class));
        }

        private static Integer percentage(JsonObject json) {
            Object value = json.getValue("rolloutPercentage");
            if (value == null) {
                return null;
            }
            if (!(value instanceof Number number) || number.doubleValue() != number.intValue()) {
                throw new IllegalArgumentException("rolloutPercentage must be a whole number from 0 to 100, not "
                        + value);
            }
            return number.intValue();
        }

        private static <E extends Enum<E>> E constant(JsonObject json, String field, Class<E> type) {
            Object value = json.getValue(field);
            if (value == null) {
                return null;
            }
            try {
                E constant = Enum.valueOf(type, ConfigSpelling.constant(value.toString()));
                if (constant != FailureMode.DEFAULT) {
                    return constant;
                }
            } catch (IllegalArgumentException e) {
                // below
            }
            throw new IllegalArgumentException(field + " cannot be '" + value + "'; it is one of "
                    + ConfigSpelling.realValues(type));
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
        }, failure -> problem(context, status(failure),
                failure instanceof IllegalArgumentException ? failure.getMessage() : "Redis is unavailable"));
    }

    /** An unknown limit in the path is not found; a value it cannot take is a bad request; anything else is Redis. */
    private static int status(Throwable failure) {
        if (failure instanceof UnknownLimitException) {
            return 404;
        }
        return failure instanceof IllegalArgumentException ? 400 : 503;
    }

    private static void json(RoutingContext context, int status, String body) {
        context.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }

    private static void problem(RoutingContext context, int status, String detail) {
        context.response().setStatusCode(status).putHeader("Content-Type", ProblemDetails.MEDIA_TYPE)
                .end(new ProblemDetails(status, switch (status) {
                    case 400 -> "Bad Request";
                    case 404 -> "Not Found";
                    default -> "Error";
                }, detail).toJson());
    }

    private static String decode(String segment) {
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
