package io.quarkiverse.ratelimit.it.entry;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/** A REST Client whose calls are limited per tenant (the tenant of the request that makes them). */
@RegisterRestClient(configKey = "entry-upstream")
@Path("/entry/upstream")
public interface EntryUpstream {

    /** A call the upstream answers with an error (here a 409) is given back. */
    @GET
    @RateLimited(policy = "entry-client", limit = EntryPointsResource.LIMIT, window = "1d", refundOn = WebApplicationException.class)
    Uni<String> call(@QueryParam("fail") boolean fail);
}
