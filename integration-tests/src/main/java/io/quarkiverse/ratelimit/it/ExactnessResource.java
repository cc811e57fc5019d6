package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.smallrye.mutiny.Uni;

/**
 * Endpoints for the concurrency tests: one-day windows, so that a burst never straddles a window boundary and the
 * exact count is what the algorithm must admit.
 */
@Path("/exact")
public class ExactnessResource {

    public static final int LIMIT = 50;

    @GET
    @Path("/sliding")
    @RateLimited(limit = LIMIT, window = "1d")
    public String sliding() {
        return "sliding";
    }

    @GET
    @Path("/fixed")
    @RateLimited(limit = LIMIT, window = "1d", algorithm = Algorithm.FIXED_WINDOW)
    public String fixed() {
        return "fixed";
    }

    @GET
    @Path("/log")
    @RateLimited(limit = LIMIT, window = "1d", algorithm = Algorithm.SLIDING_WINDOW_LOG)
    public String log() {
        return "log";
    }

    /** Refills 50 tokens a day: a one-second burst gets the 50 of the full bucket, not one more. */
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

    /** A per-tenant and a global limit in one call: in Redis Cluster both keys must share one slot. */
    @GET
    @Path("/mixed-scopes")
    @RateLimited(limit = LIMIT, window = "1d", name = "mixed-tenant")
    @RateLimited(limit = 100_000, window = "1d", name = "mixed-global", scope = Scope.GLOBAL)
    public String mixedScopes() {
        return "mixed scopes";
    }

    /** Refused calls (by the tight limit) must not count in the loose one. */
    @GET
    @Path("/two-limits")
    @RateLimited(limit = 80, window = "1d", algorithm = Algorithm.FIXED_WINDOW, name = "two-limits-loose")
    @RateLimited(limit = LIMIT, window = "1d", name = "two-limits-tight")
    public String twoLimits() {
        return "two limits";
    }

    @GET
    @Path("/reactive")
    @RateLimited(limit = LIMIT, window = "1d")
    public Uni<String> reactive() {
        return Uni.createFrom().item("reactive");
    }
}
