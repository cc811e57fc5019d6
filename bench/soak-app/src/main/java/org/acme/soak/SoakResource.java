package org.acme.soak;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;

/**
 * One endpoint per algorithm and failure mode, a multi-limit one, a reactive one, a concurrency-limited one and one
 * decided from code by a blocking caller.
 */
@Path("/soak")
public class SoakResource {

    static final RateLimit PROGRAMMATIC = RateLimit.of("programmatic", 100, Duration.ofSeconds(10));

    @Inject
    RateLimiter limiter;

    /** Decided from code on a worker thread, which waits: decisions that queue for an event loop, in batches. */
    @GET
    @Path("/programmatic")
    public Response programmatic(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.tryAcquireAndAwait(PROGRAMMATIC, tenant).allowed() ? Response.ok("ok").build()
                : Response.status(429).build();
    }

    @GET
    @Path("/fixed")
    @RateLimited(limit = 100, window = "10s", algorithm = Algorithm.FIXED_WINDOW)
    public String fixed() {
        return "ok";
    }

    @GET
    @Path("/sliding")
    @RateLimited(limit = 100, window = "10s")
    public String sliding() {
        return "ok";
    }

    @GET
    @Path("/log")
    @RateLimited(limit = 20, window = "10s", algorithm = Algorithm.SLIDING_WINDOW_LOG)
    public String log() {
        return "ok";
    }

    @GET
    @Path("/bucket")
    @RateLimited(limit = 50, window = "10s", algorithm = Algorithm.TOKEN_BUCKET, failureMode = FailureMode.FAIL_OPEN)
    public String bucket() {
        return "ok";
    }

    @GET
    @Path("/gcra")
    @RateLimited(limit = 50, window = "10s", algorithm = Algorithm.GCRA, failureMode = FailureMode.FAIL_CLOSED)
    public Uni<String> gcra() {
        return Uni.createFrom().item("ok");
    }

    @GET
    @Path("/two-limits")
    @RateLimited(name = "two-limits-second", limit = 10, window = "1s")
    @RateLimited(name = "two-limits-minute", limit = 200, window = "1m", algorithm = Algorithm.FIXED_WINDOW)
    public String twoLimits() {
        return "ok";
    }

    @GET
    @Path("/slots")
    @ConcurrencyLimited(limit = 3, lease = "10s")
    public String slots() throws InterruptedException {
        Thread.sleep(20);
        return "ok";
    }

    /** The exactness check after each recovery: a fresh tenant, 20 an hour, refused (503) rather than guessed. */
    @GET
    @Path("/exact")
    @RateLimited(limit = 20, window = "1h", algorithm = Algorithm.FIXED_WINDOW, failureMode = FailureMode.FAIL_CLOSED)
    public String exact() {
        return "ok";
    }
}
