package org.acme.bench;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Redis;

/**
 * The same endpoint with and without {@code @RateLimited}, synchronous (worker thread) and {@code Uni} (event loop);
 * and the transport's ceiling: the endpoint sending the baseline's script through Quarkus's Redis client itself.
 */
@Path("/http")
public class HttpBenchmark {

    @Inject
    Redis redis;

    private MinimalSlidingWindow.ThroughQuarkusClient transport;

    void connect(@Observes StartupEvent ignored) {
        transport = new MinimalSlidingWindow.ThroughQuarkusClient(redis);
    }

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

    /** A page as large as a refusal: 400 bytes of JSON, a response of about 475 bytes (a refusal's is about 500). */
    private static final String PAGE = "{\"items\":\"" + "x".repeat(388) + "\"}";

    @GET
    @Path("page-uni")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<String> pageUni() {
        return Uni.createFrom().item(PAGE);
    }

    /**
     * No rate limiter, but what a limiter's transport costs: the baseline's minimal sliding-window-counter script for
     * the tenant, sent through Quarkus's Redis client pipelined on one connection, its answer ignored. The most any
     * limiter on that client could reach.
     */
    @GET
    @Path("transport-uni")
    public Uni<String> transportUni(@HeaderParam("X-Tenant-Id") String tenant) {
        return Uni.createFrom().completionStage(transport.decide(tenant).thenApply(ignored -> "ok"));
    }

    /** One tenant over its limit floods it: the refused path. */
    @GET
    @Path("over-limit")
    @RateLimited(limit = 10, window = "1h")
    public String overLimit() {
        return "ok";
    }
}
