package org.acme.bench;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/** The same endpoint with and without {@code @RateLimited}, synchronous (worker thread) and {@code Uni} (event loop). */
@Path("/http")
public class HttpBenchmark {

    @GET
    @Path("plain")
    public String plain() {
        return "ok";
    }

    @GET
    @Path("limited")
    @RateLimited(limit = 1_000_000_000, window = "1h")
    public String limited() {
        return "ok";
    }

    @GET
    @Path("plain-uni")
    public Uni<String> plainUni() {
        return Uni.createFrom().item("ok");
    }

    @GET
    @Path("limited-uni")
    @RateLimited(limit = 1_000_000_000, window = "1h")
    public Uni<String> limitedUni() {
        return Uni.createFrom().item("ok");
    }

    /** One tenant over its limit floods it: the refused path. */
    @GET
    @Path("blocked")
    @RateLimited(limit = 10, window = "1h")
    public String blocked() {
        return "ok";
    }
}
