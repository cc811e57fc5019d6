package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/** The demo: 5 searches per 10 seconds per tenant, and a reactive endpoint on a fixed window. */
@Path("/search")
public class SearchResource {

    @GET
    @RateLimited(limit = 5, window = "10s")
    public String search(@QueryParam("q") String query) {
        return "results for " + (query == null ? "everything" : query);
    }

    @GET
    @Path("/fixed")
    @RateLimited(limit = 100, window = "1m", algorithm = Algorithm.FIXED_WINDOW)
    public Uni<String> fixed() {
        return Uni.createFrom().item("fixed window results");
    }
}
