package io.quarkiverse.ratelimit.it.entry;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/** A REST Client whose calls are limited per tenant (the tenant of the request that makes them). */
@RegisterRestClient(configKey = "entry-upstream")
@Path("/entry/upstream")
public interface EntryUpstream {

    @GET
    @RateLimited(policy = "entry-client", limit = EntryPointsResource.LIMIT, window = "1d")
    Uni<String> call();
}
