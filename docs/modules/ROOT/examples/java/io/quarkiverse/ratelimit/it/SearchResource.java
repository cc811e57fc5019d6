package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/**
 * The demo's search: 5 searches per 10 seconds per tenant, a reactive endpoint on a fixed window, and an export under
 * two limits at once. Shown in the README and on the docs' first page.
 */
// tag::resource[]
@Path("/search")
public class SearchResource {

    @GET
    @RateLimited(limit = 5, window = "10s")                          // sliding window counter (default)
    public String search(@QueryParam("q") String query) {
        return "results for " + (query == null ? "everything" : query);
    }

    @GET
    @Path("/fixed")
    @RateLimited(limit = 100, window = "1m", algorithm = Algorithm.FIXED_WINDOW)
    public Uni<String> fixed() {                                     // reactive methods never block the event loop
        return Uni.createFrom().item("fixed window results");
    }

    @GET
    @Path("/export")
    @RateLimited(limit = 10, window = "1s", cost = 2)                // several limits, one atomic decision:
    @RateLimited(limit = 1000, window = "1h")                        // all admit and count, or none is touched
    public String export() {
        return "export";
    }
}
// end::resource[]
