package org.acme.bench;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;

/**
 * The same endpoint with and without {@code @RateLimited}, synchronous (worker thread) and {@code Uni} (event loop);
 * and the transport's ceiling: the endpoint sending the baseline's script through Quarkus's Redis client itself.
 */
@Path("/http")
public class HttpBenchmark {

    @Inject
    Redis redis;

    private RedisConnection pipelined;
    private String sha;

    void connect(@Observes StartupEvent ignored) {
        pipelined = redis.connect().toCompletionStage().toCompletableFuture().join();
        sha = pipelined.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(MinimalSlidingWindow.SCRIPT))
                .toCompletionStage().toCompletableFuture().join().toString();
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

    /**
     * No rate limiter, but what a limiter's transport costs: the baseline's minimal sliding-window-counter script for
     * the tenant, sent through Quarkus's Redis client pipelined on one connection, its answer ignored. The most any
     * limiter on that client could reach.
     */
    @GET
    @Path("transport-uni")
    public Uni<String> transportUni(@HeaderParam("X-Tenant-Id") String tenant) {
        CompletionStage<String> sent = pipelined.send(Request.cmd(Command.EVALSHA).arg(sha).arg(2)
                .arg("{" + tenant + "}:a").arg("{" + tenant + "}:b").arg("1000000000").arg("3600000"))
                .toCompletionStage().thenApply(ignored -> "ok");
        return Uni.createFrom().completionStage(sent);
    }

    /** One tenant over its limit floods it: the refused path. */
    @GET
    @Path("blocked")
    @RateLimited(limit = 10, window = "1h")
    public String blocked() {
        return "ok";
    }
}
