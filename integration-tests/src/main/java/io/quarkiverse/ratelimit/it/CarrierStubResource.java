package io.quarkiverse.ratelimit.it;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.smallrye.common.annotation.NonBlocking;

/**
 * A carrier's API, as strict as the real ones: at most {@code carrier-stub.per-second} requests in any second (a
 * sliding second, counted by when each request left its gateway: {@link SentAtHeader}, so that a stall of the JVM that
 * hosts both the stub and a gateway does not compress arrivals as no network between them would), else {@code 429}
 * with {@code Retry-After: 1}; and, when a test announces one, an
 * outage ({@code 429} or {@code 503} with a retry time) during which it counts every request that still arrives. It counts what
 * it accepted and
 * refused, so that a demo or a test can show that the gateway's fleet kept within the quota. Not rate limited itself:
 * it is the upstream.
 */
@Path("/carrier-stub")
public class CarrierStubResource {

    private final Deque<Long> arrivals = new ArrayDeque<>();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    /** Changed at run time by a test: the carrier lowers or raises its real quota ({@code POST /carrier-stub/quota}). */
    private volatile int perSecond;
    private final CarrierOutages outages = new CarrierOutages();

    CarrierStubResource(@ConfigProperty(name = "carrier-stub.per-second", defaultValue = "50") int perSecond) {
        this.perSecond = perSecond;
    }

    @POST
    @Path("/labels")
    @NonBlocking // counted on arrival, on the event loop, not when a worker thread is free
    public Response createLabel(@HeaderParam(SentAtHeader.NAME) String sentAt) {
        Response unavailable = outages.answer(System.nanoTime(), sentAt);
        if (unavailable != null) {
            return unavailable;
        }
        if (!admit(sentAt == null ? System.currentTimeMillis() : Long.parseLong(sentAt))) {
            refused.incrementAndGet();
            return Response.status(429).header("Retry-After", "1").entity("carrier quota exceeded").build();
        }
        accepted.incrementAndGet();
        return Response.ok("label " + accepted.get()).build();
    }

    /**
     * Announces an outage to the next label request: {@code status} (429 or 503) with {@code Retry-After} in
     * {@code seconds}, or as the HTTP date that many seconds ahead ({@code date}); every request until then is counted.
     */
    @POST
    @Path("/outage")
    public String announceOutage(@QueryParam("status") int status, @QueryParam("seconds") long seconds,
            @QueryParam("date") boolean date) {
        outages.arm(status, seconds, date);
        return "armed";
    }

    /**
     * The last outage: {@code announced=<0|1> arrived=<n> arrived-after-bound=<n> latest-sent-ms=<ms>}
     * ({@link CarrierOutages}).
     */
    @GET
    @Path("/outage")
    public String outage() {
        return outages.report();
    }

    /** The carrier grants {@code perSecond} requests a second from now on, whatever it announced. */
    @POST
    @Path("/quota")
    public String changeQuota(@QueryParam("per-second") int perSecond) {
        this.perSecond = perSecond;
        return "per-second=" + perSecond;
    }

    /** {@code accepted=<n> refused=<n> per-second=<quota>} */
    @GET
    @Path("/stats")
    public String stats() {
        return "accepted=" + accepted.get() + " refused=" + refused.get() + " per-second=" + perSecond;
    }

    /** @param sentMillis when the request left its gateway (epoch ms) */
    private synchronized boolean admit(long sentMillis) {
        // the second up to this request: requests may arrive slightly out of the order they were sent in
        long within = arrivals.stream().filter(sent -> sent <= sentMillis && sentMillis - sent < 1000).count();
        arrivals.removeIf(sent -> sentMillis - sent >= 2000);
        if (within >= perSecond) {
            return false;
        }
        arrivals.addLast(sentMillis);
        return true;
    }
}
