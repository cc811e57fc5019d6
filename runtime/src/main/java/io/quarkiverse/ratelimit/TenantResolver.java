package io.quarkiverse.ratelimit;

import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Names the tenant of a call, for limits whose tenant source is {@link TenantSource#RESOLVER}: implement it as one
 * CDI bean (for example {@code @ApplicationScoped}). It may look the tenant up asynchronously (a cache, a database
 * through a reactive client); it must not block, since it may run on the event loop. The value is untrusted input to
 * the limiter: it is escaped, and hashed when long, before it reaches a Redis key.
 */
public interface TenantResolver {

    /**
     * @param request the HTTP request of the call, {@code null} when the call is not part of one
     * @return the tenant, or a {@code null} item when the call has none (the limit's missing-tenant behaviour applies)
     */
    Uni<String> resolve(RoutingContext request);
}
