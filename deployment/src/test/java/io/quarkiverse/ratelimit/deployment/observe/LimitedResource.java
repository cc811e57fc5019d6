package io.quarkiverse.ratelimit.deployment.observe;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.RateLimited;

/** One limit, so that the rate limiter has scripts to load and calls to decide, for the readiness tests. */
@Path("/limited")
public class LimitedResource {

    @GET
    @RateLimited(limit = 5, window = "1h")
    public String get() {
        return "ok";
    }
}
