package io.quarkiverse.ratelimit.runtime.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.decide.CallAdmitter;
import io.quarkiverse.ratelimit.runtime.decide.CallDecision;
import io.quarkiverse.ratelimit.runtime.decide.CallResolver;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkiverse.ratelimit.runtime.policy.TenantPlans;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;

/**
 * Answers a flood's refusals before Quarkus REST routes the request: a request of the same shape (method, path,
 * {@code Accept}, {@code Content-Type}: what Quarkus REST matches an endpoint by) as one Quarkus REST routed to a
 * limited endpoint and the limiter refused, is refused here when the refusal cache holds a refusal for it, found the
 * way the endpoint's own decision finds it: the call resolved as every call is ({@link CallResolver}: tenant, gate,
 * plans, run-time limits, keys, modes), then asked for the refusal held ({@link CallAdmitter#heldRefusal}). Anything else, or
 * anything that fails, goes on to Quarkus REST, which
 * decides the call as before: this only answers, earlier and cheaper, what the endpoint would answer.
 * <p>
 * Only where nothing Quarkus REST does before the limiter could answer otherwise ({@link #mayLearn}): no security check
 * on the endpoint, no application request filter before the limiter's, a tenant from a header (or none), no argument
 * read, no waiting, plans that do not read the request, and a refusal written straight to the response. Any method: a
 * request with a body is refused before its body is read (the server then reads and drops it, and the connection
 * serves the next request).
 */
@Singleton
public class EarlyRefusals {

    /** Paths remembered at most; then they are forgotten and learned again (a flood of distinct paths). */
    static final int MAX_PATHS = 10_000;
    /** The Vert.x context's key of the endpoint's path template, as Quarkus REST's observability sets it. */
    private static final String PATH_TEMPLATE = "UrlPathTemplate";

    /**
     * A limited endpoint, its path template ({@code null}: none), and the rest of the request shape that reached it
     * besides its path (what Quarkus REST matches an endpoint by).
     */
    private record Endpoint(EffectiveMethod method, Object pathTemplate, HttpMethod httpMethod, String accept,
            String contentType) {

        boolean reachedBy(HttpServerRequest request) {
            return httpMethod == request.method() && Objects.equals(accept, request.getHeader(HttpHeaders.ACCEPT))
                    && Objects.equals(contentType, request.getHeader(HttpHeaders.CONTENT_TYPE));
        }
    }

    /** By path, the endpoints requests of that path reached (looked up without building a key per request). */
    private final Map<String, List<Endpoint>> endpoints = new ConcurrentHashMap<>();
    private final CallResolver calls;
    private final CallAdmitter admitter;
    private final TenantPlans plans;
    private final OpenEndpoints open;
    /** Whether HTTP permissions apply inside Quarkus REST (then none of its endpoints is refused earlier). */
    private final boolean permissionsInRest;
    private volatile boolean learnedAny;

    EarlyRefusals(CallResolver calls, CallAdmitter admitter, TenantPlans plans, OpenEndpoints open) {
        this.calls = calls;
        this.admitter = admitter;
        this.plans = plans;
        this.open = open;
        this.permissionsInRest = permissionsInRest(ConfigProvider.getConfig());
    }

    /**
     * Whether a refusal of this endpoint may be learned: nothing Quarkus REST does before the limiter's filter could
     * answer the request otherwise, and its decision reads only what the HTTP request holds before routing.
     *
     * @param quietBeforeLimiter whether no step of the application's runs in Quarkus REST before the limiter's filter
     */
    boolean mayLearn(EffectiveMethod method, String methodId, boolean quietBeforeLimiter) {
        if (permissionsInRest || !quietBeforeLimiter || !open.isOpen(methodId)) {
            return false;
        }
        if (method.requestArguments() == null || method.requestArguments().length > 0) {
            return false;
        }
        if (method.tenantRule() != null && method.tenantRule().source() != TenantSource.HEADER) {
            return false; // a principal, a claim or a resolver may need what Quarkus REST sets up
        }
        if (method.dependsOnPlan() && plans.readsRequests()) {
            return false;
        }
        for (MethodLimits variant : method.variants()) {
            if (WaitingCalls.maxWaitMillis(variant.getLimits()) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Remembers that Quarkus REST routed this refused request to {@code method}. */
    void learn(RoutingContext routing, EffectiveMethod method) {
        HttpServerRequest request = routing.request();
        if (endpoints.size() >= MAX_PATHS) {
            endpoints.clear();
        }
        if (find(request) != null) {
            return; // learned already: a flood's refusals through Quarkus REST learn nothing new
        }
        Endpoint learned = new Endpoint(method, pathTemplate(request), request.method(),
                request.getHeader(HttpHeaders.ACCEPT), request.getHeader(HttpHeaders.CONTENT_TYPE));
        endpoints.merge(request.path(), List.of(learned), (known, added) -> {
            List<Endpoint> all = new ArrayList<>(known);
            all.addAll(added);
            return List.copyOf(all);
        });
        learnedAny = true;
    }

    /** The filter: refuses the request if the refusal cache holds its refusal, else lets it go on. */
    void handle(RoutingContext routing) {
        if (!learnedAny) {
            routing.next();
            return;
        }
        HttpServerRequest request = routing.request();
        Endpoint endpoint = find(request);
        if (endpoint == null) {
            routing.next();
            return;
        }
        try {
            DirectUni.mapped(calls.resolve(endpoint.method(), routing, null), admitter::heldRefusal).subscribe()
                    .withSubscriber(new Answer(routing, endpoint));
        } catch (RuntimeException e) {
            routing.next();
        }
    }

    private Endpoint find(HttpServerRequest request) {
        List<Endpoint> reached = endpoints.get(request.path());
        if (reached != null) {
            for (Endpoint endpoint : reached) {
                if (endpoint.reachedBy(request)) {
                    return endpoint;
                }
            }
        }
        return null;
    }

    private static Object pathTemplate(HttpServerRequest request) {
        return request instanceof HttpServerRequestInternal internal ? internal.context().getLocal(PATH_TEMPLATE)
                : null;
    }

    /**
     * Whether some HTTP permission applies to Quarkus REST's endpoints only, where it is checked inside it: a
     * {@code quarkus.http.auth.permission.<name>.applies-to} of {@code JAXRS}, set as a property or an environment
     * variable.
     */
    static boolean permissionsInRest(Config config) {
        for (String name : config.getPropertyNames()) {
            String upper = name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_').replace("\"", "");
            if (upper.startsWith("QUARKUS_HTTP_AUTH_PERMISSION_") && upper.endsWith("_APPLIES_TO")
                    && config.getOptionalValue(name, String.class).orElse("").strip().equalsIgnoreCase("JAXRS")) {
                return true;
            }
        }
        return false;
    }

    /** Writes a refusal the cache holds; none held ({@code null}), or a failure, lets the request go on. */
    private static final class Answer implements UniSubscriber<CallDecision> {

        private final RoutingContext routing;
        private final Endpoint endpoint;

        Answer(RoutingContext routing, Endpoint endpoint) {
            this.routing = routing;
            this.endpoint = endpoint;
        }

        @Override
        public void onSubscribe(UniSubscription subscription) {
        }

        @Override
        public void onItem(CallDecision decision) {
            if (decision == null) {
                routing.next();
                return;
            }
            HttpServerRequest request = routing.request();
            if (endpoint.pathTemplate() != null && request instanceof HttpServerRequestInternal internal) {
                internal.context().putLocal(PATH_TEMPLATE, endpoint.pathTemplate()); // for metrics and traces
            }
            RateLimitExceededExceptionMapper.write(routing.response(), decision.refusal(), decision.shown());
        }

        @Override
        public void onFailure(Throwable failure) {
            routing.next(); // a blocked tenant, a missing one: Quarkus REST answers
        }
    }
}
