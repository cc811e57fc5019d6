package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/** One limit per failure mode, for the tests that kill, pause and restart Redis. */
@Path("/failure")
public class FailureModesResource {

    public static final int LIMIT = 5;

    @GET
    @Path("/local")
    @RateLimited(limit = LIMIT, window = "1h")
    public String local() {
        return "local";
    }

    @GET
    @Path("/local-reactive")
    @RateLimited(limit = LIMIT, window = "1h", failureMode = FailureMode.LOCAL)
    public Uni<String> localReactive() {
        return Uni.createFrom().item("local-reactive");
    }

    @GET
    @Path("/open")
    @RateLimited(limit = LIMIT, window = "1h", failureMode = FailureMode.FAIL_OPEN)
    public String open() {
        return "open";
    }

    // tag::fail-closed[]
    @GET
    @Path("/closed")
    @RateLimited(limit = LIMIT, window = "1h", failureMode = FailureMode.FAIL_CLOSED)
    public String closed() {
        return "closed";
    }
    // end::fail-closed[]
}
