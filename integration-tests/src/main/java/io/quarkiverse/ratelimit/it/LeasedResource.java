package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;

/**
 * Limits busy enough to lease on a fleet that leases ({@code quarkus.rate-limit.leases.enabled=true}): a global limit
 * of the whole service and a big tenant's, for each algorithm that leases. One-day windows, so that a burst never
 * straddles a window boundary and the fleet's admissions must stay within one limit.
 */
@Path("/leased")
public class LeasedResource {

    public static final int LIMIT = 1_000;

    @GET
    @Path("/global")
    @RateLimited(limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW, scope = Scope.GLOBAL)
    public String global() {
        return "global";
    }

    @GET
    @Path("/fixed")
    @RateLimited(limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
    public String fixed() {
        return "fixed";
    }

    /** A bucket of the limit a day: a unit refills every 86 s, none during a burst. */
    @GET
    @Path("/token-bucket")
    @RateLimited(limit = LIMIT, window = "1d", algorithm = Algorithm.TOKEN_BUCKET)
    public String tokenBucket() {
        return "token bucket";
    }

    @GET
    @Path("/gcra")
    @RateLimited(limit = LIMIT, window = "1d", algorithm = Algorithm.GCRA)
    public String gcra() {
        return "gcra";
    }

    @GET
    @Path("/sliding")
    @RateLimited(limit = LIMIT, window = "1d", algorithm = Algorithm.SLIDING_WINDOW_COUNTER)
    public String sliding() {
        return "sliding";
    }
}
