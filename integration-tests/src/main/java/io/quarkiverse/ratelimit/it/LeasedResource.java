package io.quarkiverse.ratelimit.it;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Scope;

/**
 * Limits busy enough to lease on a fleet that leases ({@code quarkus.rate-limit.leases.enabled=true}): a global limit
 * of the whole service and a big tenant's, for each algorithm that leases. One-day windows, so that a burst never
 * straddles a window boundary and the fleet's admissions must stay within one limit.
 */
@Path("/leased")
public class LeasedResource {

    public static final int LIMIT = 1_000;
    /** A tenant's limit of code, whose calls cost what they name: a call can cost more than the slices hold. */
    static final RateLimit FROM_CODE = RateLimit.of("leased-from-code", LIMIT, Duration.ofDays(1))
            .algorithm(Algorithm.FIXED_WINDOW);

    @Inject
    RateLimiter limiter;

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

    /** A call of {@link #FROM_CODE} costing {@code cost}: 200 when admitted, else 429. */
    @GET
    @Path("/from-code")
    public Response fromCode(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("cost") @DefaultValue("1") long cost) {
        boolean admitted = limiter.tryAcquireAndAwait(FROM_CODE, tenant, cost).allowed();
        return Response.status(admitted ? 200 : 429).build();
    }
}
