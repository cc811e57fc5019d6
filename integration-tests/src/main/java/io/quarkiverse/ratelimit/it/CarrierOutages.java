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
 * answered the same way. A request sent ({@link SentAtHeader}) within {@link #IN_FLIGHT_MILLIS} of the announcement
 * left before its gateway could know (the answer's way back, the announcement to the other instance); one sent later
 * means a gateway did not keep the pause. A request that was only slow on its way does not count against it.
 */
final class CarrierOutages {

    /**
     * How long after the announcement a request may still be sent: before its gateway heard of it. The fleet hears of
     * it once the instance that got the answer has recorded the pause in Redis (the other instance then over the
     * invalidation channel): within a few milliseconds on an idle machine; under a whole test suite's load on two cores,
     * with that instance busy with a flood of calls, it took more than 30 ms once and more than 100 ms once. A gateway
     * that did not keep the pause would send about a hundred calls during it.
     */
    static final long IN_FLIGHT_MILLIS = 250;

    /** An outage: announced at {@code announcedNanos} ({@code 0}: not yet), until {@code untilMillis} (wall clock). */
    private record Outage(int status, long seconds, boolean date, long announcedNanos, long announcedMillis,
            long untilMillis) {
    }

    private final AtomicReference<Outage> outage = new AtomicReference<>();
    private final AtomicLong arrived = new AtomicLong();
    private final AtomicLong arrivedAfterBound = new AtomicLong();
    /** The latest a request that arrived during the outage was sent, in ms after the announcement. */
    private final AtomicLong latestSent = new AtomicLong();

    void arm(int status, long seconds, boolean date) {
        arrived.set(0);
        arrivedAfterBound.set(0);
        latestSent.set(0);
        outage.set(new Outage(status, seconds, date, 0, 0, 0));
    }

    /**
     * The answer to a request that arrives now, when an outage answers it; {@code null} when none does.
     *
     * @param sentAt when the request left its gateway ({@link SentAtHeader}, epoch ms); {@code null}: unknown, taken
     *        as its arrival
     */
    Response answer(long nowNanos, String sentAt) {
        Outage current = outage.get();
        if (current == null) {
            return null;
        }
        long nowMillis = System.currentTimeMillis();
        if (current.announcedNanos() == 0) {
            // a date has whole seconds: the outage ends at the second the date names, as the gateway reads it
            Instant until = Instant.ofEpochMilli(nowMillis).plusSeconds(current.seconds());
            Outage announced = new Outage(current.status(), current.seconds(), current.date(), nowNanos, nowMillis,
                    current.date() ? until.truncatedTo(ChronoUnit.SECONDS).toEpochMilli() : until.toEpochMilli());
            if (!outage.compareAndSet(current, announced)) {
                return answer(nowNanos, sentAt);
            }
            return unavailable(announced, current.seconds(), Instant.ofEpochMilli(announced.untilMillis()));
        }
        if (nowMillis >= current.untilMillis()) {
            return null;
        }
        arrived.incrementAndGet();
        long sentMillis = sentAt == null ? nowMillis : Long.parseLong(sentAt);
        latestSent.accumulateAndGet(sentMillis - current.announcedMillis(), Math::max);
        if (sentMillis - current.announcedMillis() > IN_FLIGHT_MILLIS) {
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

    /** {@code announced=<0|1> arrived=<n> arrived-after-bound=<n> latest-sent-ms=<ms after the announcement>} */
    String report() {
        Outage current = outage.get();
        boolean announced = current != null && current.announcedNanos() != 0;
        return "announced=" + (announced ? 1 : 0) + " arrived=" + arrived.get() + " arrived-after-bound="
                + arrivedAfterBound.get() + " latest-sent-ms=" + latestSent.get();
    }
}
