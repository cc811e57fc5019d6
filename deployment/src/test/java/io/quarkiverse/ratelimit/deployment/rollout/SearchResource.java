package io.quarkiverse.ratelimit.deployment.rollout;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.RateLimited;

/** One limit named {@code search}, for the tests of rollout configuration. */
@Path("/search")
public class SearchResource {

    @GET
    @RateLimited(name = "search", limit = 5, window = "1h")
    public String search() {
        return "ok";
    }
}
