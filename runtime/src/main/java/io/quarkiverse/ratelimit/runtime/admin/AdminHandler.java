package io.quarkiverse.ratelimit.runtime.admin;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.ReactiveRateLimitAdmin;
import io.quarkiverse.ratelimit.RefusedCaller;
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
 * DELETE {base}/tenants/{tenant}/policies/{policy}/counters  forget what it consumed: {"countersReset": n}
 * PUT    {base}/tenants/{tenant}/blocked                   refuse all its calls (403)
 * DELETE {base}/tenants/{tenant}/blocked                   lift that
 * GET, DELETE and PUT, DELETE as above under {base}/client-addresses/{address}: a caller address's counters and block
 * GET    {base}/global/policies/{policy}                   what a global limit has left
 * DELETE {base}/global/policies/{policy}/counters           forget what everyone consumed
 * GET    {base}/refused?minutes=5&top=10                   the callers refused most, fleet-wide
 * GET    {base}/switches                                   the run-time switches in force
 * PUT    {base}/switches                                   {"mode": "shadow", "rolloutPercentage": 25}: every limit
 * PUT    {base}/switches/{policy}                          {"mode": ..., "rolloutPercentage": ..., "failureMode": ...}
 * DELETE {base}/switches[/{policy}]                        back to configuration
 * </pre>
 *
 * A switch with a bad value or body, or naming no limit of the application, is a 400 and changes nothing. Counters
 * split per parameter are named by query parameters ({@code ?carrier=ups}).
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
            } else if (segments.length == 3 && isSubject(segments[0]) && segments[2].equals("blocked")
                    && (method == HttpMethod.PUT || method == HttpMethod.DELETE)) {
                RateLimitSubject subject = subject(context, segments[0], decode(segments[1]));
                reply(context, () -> (method == HttpMethod.PUT ? admin.block(subject) : admin.unblock(subject))
                        .replaceWith(""), 204);
            } else if (segments.length == 1 && segments[0].equals("refused") && method == HttpMethod.GET) {
                Duration period = Duration.ofMinutes(number(context, "minutes", 5));
                int top = number(context, "top", 10);
                reply(context, () -> admin.refusedMost(period, top).map(AdminHandler::refusedJson), 200);
            } else if ((segments.length == 1 || segments.length == 2) && segments[0].equals("switches")) {
                switchesRoute(context, admin, method, segments.length == 2 ? decode(segments[1]) : null);
            } else if (segments.length >= 3 && segments[0].equals("global")) {
                countersRoute(context, admin, method, subject(context, "global", null), segments, 1);
            } else if (segments.length >= 3 && isSubject(segments[0])) {
                String name = decode(segments[1]);
                if (segments[0].equals("tenants") && segments[2].equals("limits")) {
                    limitsRoute(context, admin, method, name, segments.length > 3 ? decode(segments[3]) : null,
                            segments.length);
                } else {
                    countersRoute(context, admin, method, subject(context, segments[0], name), segments, 2);
                }
            } else {
                problem(context, 404, "No such administration endpoint");
            }
        } catch (IllegalArgumentException e) {
            problem(context, status(e), e.getMessage());
        }
    }

    private void limitsRoute(RoutingContext context, ReactiveRateLimitAdmin admin, HttpMethod method, String tenant,
            String policy, int segments) {
        if (segments == 3 && method == HttpMethod.GET) {
            reply(context, () -> admin.limits(tenant).map(limits -> new JsonObject(new LinkedHashMap<>(limits)).encode()),
                    200);
        } else if (segments == 4 && method == HttpMethod.PUT) {
            long limit = requestedLimit(context.body().buffer());
            String invalid = LimitRules.limit(limit);
            if (invalid != null) {
                problem(context, 400, "The body must be {\"limit\": <units per window>}; " + invalid);
            } else {
                reply(context, () -> admin.setLimit(tenant, policy, limit).replaceWith(""), 204);
            }
        } else if (segments == 4 && method == HttpMethod.DELETE) {
            reply(context, () -> admin.removeLimit(tenant, policy).replaceWith(""), 204);
        } else {
            problem(context, 404, "No such administration endpoint");
        }
    }

    /**
     * {@code .../policies/{policy}} (GET: status) and {@code .../policies/{policy}/counters} (DELETE: reset), the
     * policy at {@code segments[at + 1]}.
     */
    private void countersRoute(RoutingContext context, ReactiveRateLimitAdmin admin, HttpMethod method,
            RateLimitSubject subject, String[] segments, int at) {
        boolean policies = segments.length > at + 1 && segments[at].equals("policies");
        if (policies && segments.length == at + 2 && method == HttpMethod.GET) {
            String policy = decode(segments[at + 1]);
            // the two reads at once: neither waits for the other's round trip
            reply(context, () -> Uni.combine().all().unis(admin.status(subject, policy), admin.leased(subject, policy))
                    .with((decisions, leased) -> status(decisions, leased)), 200);
        } else if (policies && segments.length == at + 3 && segments[at + 2].equals("counters")
                && method == HttpMethod.DELETE) {
            String policy = decode(segments[at + 1]);
            reply(context, () -> admin.reset(subject, policy)
                    .map(reset -> new JsonObject().put("countersReset", reset).encode()), 200);
        } else {
            problem(context, 404, "No such administration endpoint");
        }
    }

    private static boolean isSubject(String collection) {
        return collection.equals("tenants") || collection.equals("client-addresses");
    }

    /** The subject a path names, with the query's parameters as the arguments of split counters. */
    private static RateLimitSubject subject(RoutingContext context, String collection, String name) {
        RateLimitSubject subject = switch (collection) {
            case "tenants" -> RateLimitSubject.tenant(name);
            case "client-addresses" -> RateLimitSubject.clientAddress(name);
            default -> RateLimitSubject.everyone();
        };
        for (var parameter : context.queryParams()) {
            subject = subject.withArgument(parameter.getKey(), parameter.getValue());
        }
        return subject;
    }

    private void switchesRoute(RoutingContext context, ReactiveRateLimitAdmin admin, HttpMethod method, String policy) {
        if (method == HttpMethod.GET && policy == null) {
            json(context, 200, new JsonObject(new LinkedHashMap<>(admin.switches())).encode());
        } else if (method == HttpMethod.DELETE) {
            reply(context, () -> admin.clearSwitches(policy).replaceWith(""), 204);
        } else if (method == HttpMethod.PUT) {
            SwitchesBody requested;
            try {
                requested = SwitchesBody.of(context.body().buffer());
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

    /** The limit of a PUT body (read by the route's body handler), 0 when there is none. */
    private static long requestedLimit(Buffer body) {
        try {
            return body == null ? 0 : new JsonObject(body).getLong("limit", 0L);
        } catch (DecodeException | ClassCastException e) {
            return 0;
        }
    }

    private static String status(List<RateLimitDecision> decisions, Map<String, Long> leased) {
        JsonArray array = new JsonArray();
        for (RateLimitDecision decision : decisions) {
            array.add(new JsonObject()
                    .put("name", decision.limitName())
                    .put("limit", decision.limit())
                    .put("windowSeconds", decision.window().toSeconds())
                    .put("remaining", decision.remaining())
                    // counted as used in remaining, held by the instances' slices (quarkus.rate-limit.leases)
                    .put("leased", leased.getOrDefault(decision.limitName(), 0L))
                    .put("resetMillis", decision.resetAfter().toMillis())
                    .put("degraded", decision.degraded())
                    // read at cost 0: refused only beyond the limit, where a settled overrun (reserve, then settle) puts it
                    .put("inDebt", !decision.allowed()));
        }
        return array.encode();
    }

    /** The callers refused most, each named by its kind: {"tenant": ..., "refusals": n} or {"clientAddress": ...}. */
    private static String refusedJson(List<RefusedCaller> callers) {
        JsonArray array = new JsonArray();
        for (RefusedCaller caller : callers) {
            String kind = caller.subject().kind() == RateLimitSubject.Kind.CLIENT_ADDRESS ? "clientAddress" : "tenant";
            array.add(new JsonObject().put(kind, caller.subject().name()).put("refusals", caller.refusals()));
        }
        return array.encode();
    }

    /** A whole-number query parameter, {@code otherwise} when absent; not an int (or too large for one) is a bad request. */
    private static int number(RoutingContext context, String name, int otherwise) {
        String value = context.queryParams().get(name);
        try {
            return value == null ? otherwise : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The query parameter " + name + " must be a whole number, not " + value);
        }
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
