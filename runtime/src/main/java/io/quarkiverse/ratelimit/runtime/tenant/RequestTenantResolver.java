package io.quarkiverse.ratelimit.runtime.tenant;

import java.util.Optional;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * Finds the tenant of the current call and returns its key tag ({@link TenantTags}): the configured header when
 * {@code quarkus.rate-limit.tenant.header} is set, else the authenticated principal's name, else the client's address.
 */
@Singleton
public class RequestTenantResolver {

    private final Optional<String> header;
    private final InjectableInstance<CurrentIdentityAssociation> identity;
    private final CurrentVertxRequest currentRequest;

    RequestTenantResolver(RateLimitConfig config, InjectableInstance<CurrentIdentityAssociation> identity,
            CurrentVertxRequest currentRequest) {
        this.header = config.tenant().header();
        this.identity = identity;
        this.currentRequest = currentRequest;
    }

    /** The HTTP request being served, {@code null} when the call is not part of one. */
    public RoutingContext currentRequest() {
        return Arc.container().requestContext().isActive() ? currentRequest.getCurrent() : null;
    }

    /** @param request the current HTTP request, {@code null} when the call is not part of one */
    public Uni<String> resolveTag(RoutingContext request) {
        if (header.isPresent()) {
            return Uni.createFrom().item(() -> fromHeader(request, header.get()));
        }
        if (!identity.isResolvable() || !Arc.container().requestContext().isActive()) {
            return Uni.createFrom().item(() -> fromClientAddress(request));
        }
        return identity.get().getDeferredIdentity()
                .map(securityIdentity -> isAuthenticated(securityIdentity)
                        ? TenantTags.forTenant(securityIdentity.getPrincipal().getName())
                        : fromClientAddress(request));
    }

    private static String fromHeader(RoutingContext request, String name) {
        if (request == null) {
            throw new MissingTenantException("The tenant header " + name + " is required, but the call is not an HTTP request");
        }
        String tenant = request.request().getHeader(name);
        if (tenant == null || tenant.isBlank()) {
            throw new MissingTenantException("The request header " + name + " is required and names the tenant");
        }
        return TenantTags.forTenant(tenant);
    }

    /** The client address's tag for {@code CLIENT_ADDRESS}-scoped limits (the shared anonymous tag outside HTTP). */
    public static String clientTag(RoutingContext request) {
        return fromClientAddress(request);
    }

    private static String fromClientAddress(RoutingContext request) {
        SocketAddress address = request == null ? null : request.request().remoteAddress();
        if (address == null || address.hostAddress() == null) {
            return TenantTags.ANONYMOUS;
        }
        return TenantTags.forClientAddress(address.hostAddress());
    }

    private static boolean isAuthenticated(SecurityIdentity identity) {
        return identity != null && !identity.isAnonymous() && identity.getPrincipal() != null
                && identity.getPrincipal().getName() != null;
    }
}
