package io.quarkiverse.ratelimit.it.entry;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.eclipse.microprofile.rest.client.inject.RestClient;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.ConcurrencyLimit;
import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Scope;
import io.smallrye.mutiny.Uni;

/**
 * Every way into a limit, side by side, each limited to {@value #LIMIT} calls a day per tenant ({@code X-Tenant-Id}):
 * a {@code @RateLimited} REST endpoint, CDI bean and REST Client, a {@code @ConcurrencyLimited} endpoint, and each
 * {@link RateLimiter} method. A refusal is a 429, a blocked tenant a 403, whichever way the call came in. The
 * entry-point tests cross every promise with every one of them.
 */
@Path("/entry")
public class EntryPointsResource {

    public static final int LIMIT = 2;

    static final RateLimit TRIED = RateLimit.of("entry-try", LIMIT, Duration.ofDays(1));
    static final RateLimit TRIED_ALSO = RateLimit.of("entry-try-also", 1000, Duration.ofDays(1));
    /** A call may wait for a later slot: the token bucket holds it (here a day away, so beyond the wait). */
    static final RateLimit WAITED = RateLimit.of("entry-wait", LIMIT, Duration.ofDays(1)).algorithm(Algorithm.GCRA)
            .burst(LIMIT).maxWait(Duration.ofMillis(200));
    static final RateLimit WAITED_ALSO = RateLimit.of("entry-wait-also", 1000, Duration.ofDays(1))
            .algorithm(Algorithm.GCRA).burst(1000).maxWait(Duration.ofMillis(200));
    /** The slots of the concurrency entry points: one per tenant, held by {@code /entry/slots/hold}. */
    static final ConcurrencyLimit SLOTS = ConcurrencyLimit.of("entry-slots", 1).lease(Duration.ofMinutes(10));

    @Inject
    RateLimiter limiter;

    @Inject
    LimitedLabels bean;

    @Inject
    @RestClient
    EntryUpstream upstream;

    @GET
    @Path("/rest")
    @RateLimited(policy = "entry-rest", limit = LIMIT, window = "1d")
    public String rest() {
        return "admitted";
    }

    /** Counted per caller address, whatever the tenant: a sign-up form. */
    @GET
    @Path("/signup")
    @RateLimited(policy = "entry-signup", limit = LIMIT, window = "1d", scope = Scope.CLIENT_ADDRESS)
    public String signup() {
        return "admitted";
    }

    /** Per tenant, and a call without one counts under its caller address ({@code tenant.missing=client-address}). */
    @GET
    @Path("/guest")
    @RateLimited(policy = "entry-guest", limit = LIMIT, window = "1d")
    public String guest() {
        return "admitted";
    }

    @GET
    @Path("/bean")
    public String bean() {
        return bean.label();
    }

    @GET
    @Path("/rest-client")
    public Uni<String> restClient() {
        return upstream.call();
    }

    /** What the REST Client calls: not limited itself. */
    @GET
    @Path("/upstream")
    public String upstreamAnswer() {
        return "admitted";
    }

    @GET
    @Path("/concurrency")
    @ConcurrencyLimited(name = "entry-slots", limit = 1, lease = "10m")
    public String concurrency() {
        return "admitted";
    }

    /** Holds the tenant's one slot (not released: its lease ends it), so that the concurrency entry points refuse. */
    @POST
    @Path("/slots/hold")
    public Uni<String> hold(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.acquireSlot(SLOTS, tenant).replaceWith("held");
    }

    @GET
    @Path("/acquire-slot")
    public Uni<String> acquireSlot(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.acquireSlot(SLOTS, tenant).chain(slot -> slot.release()).replaceWith("admitted");
    }

    @GET
    @Path("/try-acquire")
    public Uni<String> tryAcquire(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.tryAcquire(TRIED, tenant).map(decision -> answer(List.of(decision)));
    }

    @GET
    @Path("/try-acquire-blocking")
    public String tryAcquireBlocking(@HeaderParam("X-Tenant-Id") String tenant) {
        return answer(List.of(limiter.tryAcquireAndAwait(TRIED, tenant)));
    }

    @GET
    @Path("/try-acquire-all")
    public Uni<String> tryAcquireAll(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.tryAcquireAll(List.of(TRIED, TRIED_ALSO), tenant).map(EntryPointsResource::answer);
    }

    @GET
    @Path("/acquire")
    public Uni<String> acquire(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.acquire(WAITED, tenant).map(decision -> answer(List.of(decision)));
    }

    @GET
    @Path("/acquire-blocking")
    public String acquireBlocking(@HeaderParam("X-Tenant-Id") String tenant) {
        return answer(List.of(limiter.acquireAndAwait(WAITED, tenant)));
    }

    @GET
    @Path("/acquire-all")
    public Uni<String> acquireAll(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.acquireAll(List.of(WAITED, WAITED_ALSO), tenant).map(EntryPointsResource::answer);
    }

    /** What the tenant has left of a programmatic limit ({@code try} or {@code wait}), without consuming anything. */
    @GET
    @Path("/limits/{limit}/remaining")
    public Uni<Long> remaining(@PathParam("limit") String limit, @HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.status(programmatic(limit), tenant).map(RateLimitDecision::remaining);
    }

    /** Forgets what the tenant consumed of a programmatic limit. */
    @DELETE
    @Path("/limits/{limit}")
    public Uni<Void> reset(@PathParam("limit") String limit, @HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.reset(programmatic(limit), tenant);
    }

    private static RateLimit programmatic(String limit) {
        return limit.equals("wait") ? WAITED : TRIED;
    }

    /** Admitted when every decision allows the call; else the refusal Quarkus REST answers with a 429. */
    private static String answer(List<RateLimitDecision> decisions) {
        for (RateLimitDecision decision : decisions) {
            if (!decision.allowed()) {
                throw new RateLimitExceededException(decisions);
            }
        }
        return "admitted";
    }
}
