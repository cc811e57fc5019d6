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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

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
    @RateLimited(policy = "entry-rest", limit = LIMIT, window = "1d", refundOn = EntryFailedException.class)
    public String rest(@QueryParam("fail") boolean fail) {
        return EntryFailedException.admittedUnless(fail);
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
    public String bean(@QueryParam("fail") boolean fail) {
        return bean.label(fail);
    }

    @GET
    @Path("/rest-client")
    public Uni<String> restClient(@QueryParam("fail") boolean fail) {
        return upstream.call(fail);
    }

    /** What the REST Client calls: not limited itself; a 409 when asked to fail. */
    @GET
    @Path("/upstream")
    public String upstreamAnswer(@QueryParam("fail") boolean fail) {
        return EntryFailedException.admittedUnless(fail);
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
    public Uni<String> tryAcquire(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("fail") boolean fail) {
        return limiter.tryAcquire(TRIED, tenant).chain(decision -> answer(List.of(decision), List.of(TRIED), tenant, fail));
    }

    @GET
    @Path("/try-acquire-blocking")
    public String tryAcquireBlocking(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("fail") boolean fail) {
        return answer(List.of(limiter.tryAcquireAndAwait(TRIED, tenant)), List.of(TRIED), tenant, fail).await()
                .indefinitely();
    }

    @GET
    @Path("/try-acquire-all")
    public Uni<String> tryAcquireAll(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("fail") boolean fail) {
        List<RateLimit> limits = List.of(TRIED, TRIED_ALSO);
        return limiter.tryAcquireAll(limits, tenant).chain(decisions -> answer(decisions, limits, tenant, fail));
    }

    @GET
    @Path("/acquire")
    public Uni<String> acquire(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("fail") boolean fail) {
        return limiter.acquire(WAITED, tenant).chain(decision -> answer(List.of(decision), List.of(WAITED), tenant, fail));
    }

    @GET
    @Path("/acquire-blocking")
    public String acquireBlocking(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("fail") boolean fail) {
        return answer(List.of(limiter.acquireAndAwait(WAITED, tenant)), List.of(WAITED), tenant, fail).await()
                .indefinitely();
    }

    @GET
    @Path("/acquire-all")
    public Uni<String> acquireAll(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("fail") boolean fail) {
        List<RateLimit> limits = List.of(WAITED, WAITED_ALSO);
        return limiter.acquireAll(limits, tenant).chain(decisions -> answer(decisions, limits, tenant, fail));
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

    /**
     * Admitted when every decision allows the call; else the refusal Quarkus REST answers with a 429. An admitted call
     * asked to fail gives its units back first ({@link RateLimiter#refund}), as code whose work failed would.
     */
    private Uni<String> answer(List<RateLimitDecision> decisions, List<RateLimit> limits, String tenant, boolean fail) {
        for (RateLimitDecision decision : decisions) {
            if (!decision.allowed()) {
                return Uni.createFrom().failure(new RateLimitExceededException(decisions));
            }
        }
        if (!fail) {
            return Uni.createFrom().item("admitted");
        }
        Uni<Void> refunds = Uni.createFrom().voidItem();
        for (RateLimit limit : limits) {
            refunds = refunds.chain(() -> limiter.refund(limit, tenant, 1));
        }
        return refunds.chain(() -> Uni.createFrom().failure(new EntryFailedException()));
    }

    @ServerExceptionMapper
    public Response failed(EntryFailedException failure) {
        return Response.status(Response.Status.CONFLICT).entity(failure.getMessage()).build();
    }
}
