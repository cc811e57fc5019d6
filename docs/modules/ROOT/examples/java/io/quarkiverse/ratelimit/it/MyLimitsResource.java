package io.quarkiverse.ratelimit.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.ratelimit.RateLimitUsage;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A tenant reading its own limits, in the application's own shape: what a client backs off on instead of a 429.
 * Shown on Multi-tenancy.
 */
// tag::usage[]
@Path("/my/limits")
public class MyLimitsResource {

    @Inject
    RateLimiter limiter;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RateLimited(name = "my-limits", limit = 60, window = "1m")  // asking is cheap, not free: a limit of its own
    public Uni<JsonArray> mine(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.usage(tenant)                              // read at cost 0: counts against nothing
                .map(usage -> new JsonArray(usage.stream().map(MyLimitsResource::asJson).toList()));
    }

    /** One of the caller's limits, as its client reads it. */
    static JsonObject asJson(RateLimitUsage limit) {
        return new JsonObject()
                .put("name", limit.name())
                .put("limit", limit.limit())
                .put("windowSeconds", limit.window().toSeconds())
                .put("remaining", limit.remaining())
                .put("resetSeconds", limit.resetAfter().toSeconds())
                .put("inDebt", limit.inDebt());                   // refused even at no cost until paid back
    }
}
// end::usage[]
