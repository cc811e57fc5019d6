package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;

/** Short windows, for the window rollover tests. */
@Path("/rollover")
public class RolloverResource {

    @GET
    @Path("/sliding")
    @RateLimited(limit = 2, window = "1s")
    public String sliding() {
        return "sliding";
    }

    @GET
    @Path("/fixed")
    @RateLimited(limit = 2, window = "1s", algorithm = Algorithm.FIXED_WINDOW)
    public String fixed() {
        return "fixed";
    }
}
