package io.quarkiverse.ratelimit.runtime;

import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.quarkiverse.ratelimit.runtime.admin.AdminHandler;
import io.quarkiverse.ratelimit.runtime.config.BuildCapabilities;
import io.quarkiverse.ratelimit.runtime.http.EarlyRefusalFilter;
import io.quarkiverse.ratelimit.runtime.http.OpenEndpoints;
import io.quarkiverse.ratelimit.runtime.http.RestSteps;
import io.quarkiverse.ratelimit.runtime.http.TenantUsageEndpoint;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredConcurrencyLimits;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredLimits;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.Recorder;
import io.vertx.core.Handler;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;

@Recorder
public class RateLimitRecorder {

    /** Makes a route read request bodies (for the administration endpoints' PUT) before its handler. */
    public Consumer<Route> readingBodies(Handler<RoutingContext> bodyHandler) {
        return route -> route.handler(bodyHandler);
    }

    /** The administration endpoints, served under {@code base}. */
    public Handler<RoutingContext> adminHandler(String base) {
        return new AdminHandler(base);
    }

    /** The usage endpoint: the {@link TenantUsageEndpoint} bean, looked up at its first request. */
    public Handler<RoutingContext> usageHandler() {
        return new Handler<>() {
            private volatile TenantUsageEndpoint endpoint;

            @Override
            public void handle(RoutingContext request) {
                TenantUsageEndpoint current = endpoint;
                if (current == null) {
                    current = Arc.container().instance(TenantUsageEndpoint.class).get();
                    endpoint = current;
                }
                current.handle(request);
            }
        };
    }

    /** The filter that answers a flood's refusals before Quarkus REST. */
    public Handler<RoutingContext> earlyRefusalFilter() {
        return new EarlyRefusalFilter();
    }

    public Supplier<OpenEndpoints> openEndpoints(Set<String> methodIds) {
        OpenEndpoints open = new OpenEndpoints(methodIds);
        return () -> open;
    }

    public Supplier<RestSteps> restSteps(Set<String> afterRequestSteps, Set<String> withAnswerSteps) {
        RestSteps steps = new RestSteps(afterRequestSteps, withAnswerSteps);
        return () -> steps;
    }

    public Supplier<DeclaredLimits> rateLimitedMethods(Map<String, MethodLimits> byMethodId) {
        DeclaredLimits methods = new DeclaredLimits(byMethodId);
        return () -> methods;
    }

    public Supplier<DeclaredConcurrencyLimits> concurrencyLimitedMethods(
            Map<String, ConcurrencyDefinition> byMethodId) {
        DeclaredConcurrencyLimits methods = new DeclaredConcurrencyLimits(byMethodId);
        return () -> methods;
    }

    public Supplier<BuildCapabilities> capabilities(boolean tokensAvailable) {
        BuildCapabilities capabilities = new BuildCapabilities(tokensAvailable);
        return () -> capabilities;
    }
}
