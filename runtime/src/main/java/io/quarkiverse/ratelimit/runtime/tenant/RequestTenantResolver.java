package io.quarkiverse.ratelimit.runtime.tenant;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.TenantRequiredException;
import io.quarkiverse.ratelimit.TenantResolver;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.TenantRule;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Finds the tenant of the current call by a {@link TenantRule}: from its source (header, principal, JWT claim, method
 * parameter, the application's {@link TenantResolver}), else by the rule's missing-tenant behaviour.
 */
@Singleton
public class RequestTenantResolver {

    private final String header;
    private final String claim;
    private final String pathParameter;
    private final InjectableInstance<CurrentIdentityAssociation> identity;
    private final InjectableInstance<TenantResolver> resolver;
    private final CurrentVertxRequest currentRequest;
    private final ClientAddresses clientAddresses;
    /** The headers of calls other than HTTP requests (gRPC); {@code null} when the application serves none. */
    private final CallHeaders callHeaders;

    RequestTenantResolver(RateLimitConfig config, InjectableInstance<CurrentIdentityAssociation> identity,
            InjectableInstance<TenantResolver> resolver, CurrentVertxRequest currentRequest,
            ClientAddresses clientAddresses, InjectableInstance<CallHeaders> callHeaders) {
        this.callHeaders = callHeaders.isResolvable() ? callHeaders.get() : null;
        this.header = config.tenant().header().orElse(null);
        this.claim = config.tenant().claim();
        this.pathParameter = config.tenant().pathParameter();
        this.identity = identity;
        this.resolver = resolver;
        this.currentRequest = currentRequest;
        this.clientAddresses = clientAddresses;
    }

    /** The HTTP request being served, {@code null} when the call is not part of one. */
    public RoutingContext currentRequest() {
        return Arc.container().requestContext().isActive() ? currentRequest.getCurrent() : null;
    }

    /** Fails start-up when a rule's source cannot work in this application, naming the property. */
    public void checkUsable(TenantRule rule, String method, Map<String, Integer> parameters, boolean tokensAvailable) {
        String problem = switch (rule.source()) {
            case HEADER -> header != null ? null
                    : "takes its tenant from a header, but quarkus.rate-limit.tenant.header is not set";
            case RESOLVER -> resolver.isResolvable() ? null
                    : "takes its tenant from a TenantResolver (tenant source resolver), but the application has "
                            + (resolver.isAmbiguous() ? "several" : "no") + " TenantResolver beans";
            case JWT_CLAIM -> tokensAvailable ? null
                    : "takes its tenant from a JWT claim (tenant source jwt-claim), but " + TenantRule.NO_TOKENS;
            case PATH_PARAMETER -> parameters != null && parameters.containsKey(pathParameter) ? null
                    : "takes its tenant from the parameter '" + pathParameter
                            + "' (quarkus.rate-limit.tenant.path-parameter), but has no parameter of that name"
                            + (parameters == null || parameters.isEmpty() ? "" : " (it has " + parameters.keySet() + ")");
            case PRINCIPAL, DEFAULT -> null;
        };
        if (problem != null) {
            String property = switch (rule.source()) {
                case HEADER -> "quarkus.rate-limit.tenant.header";
                case PATH_PARAMETER -> "quarkus.rate-limit.tenant.path-parameter";
                default -> "quarkus.rate-limit.tenant.source";
            };
            throw new ConfigurationException(method + " " + problem + "; the tenant source comes from the annotation,"
                    + " the policy's tenant.source or quarkus.rate-limit.tenant.source", Set.of(property));
        }
    }

    /**
     * The call's tenant. One that comes at once (a header, a parameter) is computed when the {@code Uni} is
     * subscribed, in a {@link DirectUni} that captures no context; a security identity or the application's resolver
     * may have to wait, and is mapped. A required tenant missing is the {@code Uni}'s failure.
     *
     * @param request the current HTTP request, {@code null} when the call is not part of one
     * @param arguments the method's arguments (for the path-parameter source), {@code null} when unknown
     * @param parameters the positions of the method's named parameters
     */
    public Uni<ResolvedTenant> resolve(TenantRule rule, RoutingContext request, Object[] arguments,
            Map<String, Integer> parameters) {
        return resolve(rule, request, arguments, parameters, this::identity);
    }

    /**
     * The tenant of a request to a route of the extension's own (the usage endpoint): no method arguments, and the
     * caller's identity as the route finds it, since no CDI request context is active there.
     */
    public Uni<ResolvedTenant> resolve(TenantRule rule, RoutingContext request,
            Supplier<Uni<SecurityIdentity>> identity) {
        return resolve(rule, request, null, null, identity);
    }

    private Uni<ResolvedTenant> resolve(TenantRule rule, RoutingContext request, Object[] arguments,
            Map<String, Integer> parameters, Supplier<Uni<SecurityIdentity>> identity) {
        TenantSource source = rule.source();
        if (source == TenantSource.HEADER || source == TenantSource.PATH_PARAMETER) {
            return DirectUni.computed(() -> resolved(rule, request, immediate(source, request, arguments, parameters)));
        }
        Uni<String> deferred = switch (source) {
            case PRINCIPAL -> identity.get().map(id -> isAuthenticated(id) ? id.getPrincipal().getName() : null);
            case JWT_CLAIM -> identity.get()
                    .map(id -> isAuthenticated(id) ? JwtClaims.claim(id.getPrincipal(), claim) : null);
            case RESOLVER -> resolver.get().resolve(request);
            case HEADER, PATH_PARAMETER, DEFAULT -> throw new IllegalStateException("A tenant rule has a concrete source");
        };
        return deferred.map(id -> resolved(rule, request, id));
    }

    /** The tenant from a header or a parameter: known at once. */

    private String immediate(TenantSource source, RoutingContext request, Object[] arguments,
            Map<String, Integer> parameters) {
        if (source == TenantSource.HEADER) {
            if (request != null) {
                return request.request().getHeader(header);
            }
            return callHeaders == null ? null : callHeaders.header(header);
        }
        Integer at = parameters == null ? null : parameters.get(pathParameter);
        Object value = at == null || arguments == null ? null : arguments[at];
        return value == null ? null : value.toString();
    }

    /** The tenant found by the rule's source, else what the rule says for a call without one. */
    private ResolvedTenant resolved(TenantRule rule, RoutingContext request, String tenant) {
        if (tenant != null && !tenant.isBlank()) {
            return new ResolvedTenant(tenant, TenantTags.forTenant(tenant));
        }
        return switch (rule.missing()) {
            case ANONYMOUS -> new ResolvedTenant(null, TenantTags.ANONYMOUS);
            case CLIENT_ADDRESS -> new ResolvedTenant(null, clientAddresses.tag(request));
            case REJECT -> throw new TenantRequiredException(missingMessage(rule.source(), request),
                    rule.missingStatus());
        };
    }

    private Uni<SecurityIdentity> identity() {
        if (!identity.isResolvable() || !Arc.container().requestContext().isActive()) {
            return Uni.createFrom().nullItem();
        }
        return identity.get().getDeferredIdentity();
    }

    private String missingMessage(TenantSource source, RoutingContext request) {
        return switch (source) {
            case HEADER -> request == null
                    ? "The tenant header " + header + " is required, and the call has none (an HTTP request's, or a gRPC"
                            + " call's metadata)"
                    : "The request header " + header + " is required and names the tenant";
            case PRINCIPAL -> "Authentication is required: the tenant is the authenticated user";
            case JWT_CLAIM -> "A bearer token with the claim '" + claim + "' is required: it names the tenant";
            case PATH_PARAMETER -> "The parameter '" + pathParameter + "' is required and names the tenant";
            case RESOLVER, DEFAULT -> "The tenant of this call could not be determined";
        };
    }

    private static boolean isAuthenticated(SecurityIdentity identity) {
        return identity != null && !identity.isAnonymous() && identity.getPrincipal() != null
                && identity.getPrincipal().getName() != null;
    }
}
