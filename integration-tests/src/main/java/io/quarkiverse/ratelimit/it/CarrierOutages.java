package io.quarkiverse.ratelimit.it;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.ws.rs.core.Response;

/**
 * The carrier stub's outages: one announced to the next request (a {@code 429} or {@code 503} with
 * {@code Retry-After} in seconds or as an HTTP date), then every request that arrives before its end is counted and
 * answered the same way. Requests arriving within {@link #IN_FLIGHT_MILLIS} of the announcement were on their way
 * before anyone could know; any later one means a gateway did not keep the pause.
 */
final class CarrierOutages {

    /** How long after the announcement a request may still arrive: sent before the gateways heard of it. */
    static final long IN_FLIGHT_MILLIS = 30;

    /** An outage: announced at {@code announcedNanos} ({@code 0}: not yet), until {@code untilMillis} (wall clock). */
    private record Outage(int status, long seconds, boolean date, long announcedNanos, long untilMillis) {
    }

    private final AtomicReference<Outage> outage = new AtomicReference<>();
    private final AtomicLong arrived = new AtomicLong();
    private final AtomicLong arrivedAfterBound = new AtomicLong();

    void arm(int status, long seconds, boolean date) {
        arrived.set(0);
        arrivedAfterBound.set(0);
        outage.set(new Outage(status, seconds, date, 0, 0));
    }

    /** The answer to a request that arrives now, when an outage answers it; {@code null} when none does. */
    Response answer(long nowNanos) {
        Outage current = outage.get();
        if (current == null) {
            return null;
        }
        long nowMillis = System.currentTimeMillis();
        if (current.announcedNanos() == 0) {
            // a date has whole seconds: the outage ends at the second the date names, as the gateway reads it
            Instant until = Instant.ofEpochMilli(nowMillis).plusSeconds(current.seconds());
            Outage announced = new Outage(current.status(), current.seconds(), current.date(), nowNanos,
                    current.date() ? until.truncatedTo(ChronoUnit.SECONDS).toEpochMilli() : until.toEpochMilli());
            if (!outage.compareAndSet(current, announced)) {
                return answer(nowNanos);
            }
            return unavailable(announced, current.seconds(), Instant.ofEpochMilli(announced.untilMillis()));
        }
        if (nowMillis >= current.untilMillis()) {
            return null;
        }
        arrived.incrementAndGet();
        if ((nowNanos - current.announcedNanos()) / 1_000_000 > IN_FLIGHT_MILLIS) {
            arrivedAfterBound.incrementAndGet();
        }
        long left = Math.max(1, (current.untilMillis() - nowMillis + 999) / 1000);
        return unavailable(current, left, Instant.ofEpochMilli(current.untilMillis()));
    }

    private static Response unavailable(Outage outage, long seconds, Instant until) {
        String retryAfter = outage.date()
                ? DateTimeFormatter.RFC_1123_DATE_TIME.format(until.atOffset(ZoneOffset.UTC))
                : Long.toString(seconds);
        return Response.status(outage.status()).header("Retry-After", retryAfter).entity("carrier unavailable").build();
    }

    /** {@code announced=<0|1> arrived=<n> arrived-after-bound=<n>} */
    String report() {
        Outage current = outage.get();
        boolean announced = current != null && current.announcedNanos() != 0;
        return "announced=" + (announced ? 1 : 0) + " arrived=" + arrived.get() + " arrived-after-bound="
                + arrivedAfterBound.get();
    }
}
