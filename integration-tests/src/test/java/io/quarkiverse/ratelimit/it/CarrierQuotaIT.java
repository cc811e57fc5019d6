package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/**
 * The carrier gateway's outgoing calls on a fleet: two packaged instances, one Redis, and one carrier that allows 50
 * requests in any second (the stub of the first instance, counting what it refuses). 64 callers per instance keep asking
 * for labels; every instance's calls to the carrier wait for their turn in one fleet-wide queue of 48 a second. The carrier
 * refuses nothing; admitted calls wait at most the 2 s maxWait (and a margin for this machine); the rest are refused at
 * once. The share of the quota the fleet uses is the machine's figure (a call whose timer fires late loses its slot
 * rather than bunch calls at the carrier): {@code bench/carrier-quota.sh} measures it; here it only has to show the queue
 * working (more than 0.3; 0.5 to 0.95 on the machines it ran on).
 * <p>
 * Real time is this test's subject (the carrier counts its quota per wall-clock second, across processes): it reads the wall
 * clock on purpose.
 */
class CarrierQuotaIT {

    private static final int CALLERS_PER_INSTANCE = Integer.getInteger("carrier-quota.callers", 64);
    private static final long RUN_SECONDS = Long.getLong("carrier-quota.seconds", 10);
    private static final Pattern STATS = Pattern.compile("accepted=(\\d+) refused=(\\d+) per-second=(\\d+)");

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> twoInstancesOnOneCarrier(redis));

    /** The gateway's limit on the carrier's API ({@code CarrierApi}): 48 calls a second. */
    private static final int LIMIT = 48;

    /**
     * The carrier's quota: 50 a second, as in the docs. The two instances, Redis and 128 callers share two cores, and a
     * waiting call's timer can fire hundreds of milliseconds late here; such a call takes the next free slot instead of
     * going late ({@code late-slot-tolerance}), so the carrier never sees calls bunched.
     */
    private static final int CARRIER_QUOTA = Integer.getInteger("carrier-quota.carrier-per-second", 50);

    /** Two instances on the first one's carrier stub, which grants {@link #CARRIER_QUOTA} a second. */
    static List<AppInstance> twoInstancesOnOneCarrier(LocalRedisServer redis, String... given) {
        String[] properties = Arrays.copyOf(given, given.length + 1);
        properties[given.length] = "carrier-stub.per-second=" + CARRIER_QUOTA;
        return CarrierFleet.start(redis, List.of("carrier-api"), properties);
    }

    @Test
    void theFleetKeepsWithinTheCarriersQuotaAndUsesIt() throws Exception {
        keepsWithinTheCarriersQuotaAndUsesIt(fleet);
    }

    /**
     * One instance runs late: every event loop of the second instance stops for 300 ms every 1.5 s, as long
     * garbage-collection pauses would. The calls whose turn came meanwhile take later slots instead of going late
     * together, so the carrier still refuses nothing; the fleet loses some of its share.
     */
    @Test
    void oneInstanceRunningLateBunchesNoCallsAtTheCarrier() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        load(fleet, client, 3, new Latencies()); // both instances warmed up (JIT, connections): not measured
        long[] before = carrier(fleet, client);
        AtomicInteger stalls = new AtomicInteger();
        ScheduledExecutorService lateness = Executors.newSingleThreadScheduledExecutor();
        URI stall = fleet.instance(1).uri().resolve("/lateness?millis=300");
        lateness.scheduleAtFixedRate(() -> {
            try {
                client.send(HttpRequest.newBuilder(stall).POST(HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.discarding());
                stalls.incrementAndGet();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, 500, 1500, TimeUnit.MILLISECONDS);
        Latencies latencies = new Latencies();
        double seconds = load(fleet, client, RUN_SECONDS, latencies);
        lateness.shutdown();
        assertThat(lateness.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        long[] after = carrier(fleet, client);
        long accepted = after[0] - before[0];
        long carrierRefused = after[1] - before[1];
        System.out.printf("carrier quota, the second instance stalled 300 ms %d times in %.1f s: carrier accepted %d"
                + " (%.1f/s, %.2f of the limit of %d/s), refused %d; gateway admitted %d, refused %d, other %s%n",
                stalls.get(), seconds, accepted, accepted / seconds, accepted / seconds / LIMIT, LIMIT, carrierRefused,
                latencies.admitted.size(), latencies.refused.size(), latencies.other);

        assertThat(stalls.get()).as("stalls of the second instance").isGreaterThanOrEqualTo(5);
        assertThat(carrierRefused).as("requests the carrier refused (429)").isZero();
        assertThat(latencies.other).as("other answers than 200 and 429").isEmpty();
        assertThat(accepted / seconds / LIMIT).as("the share of its limit the fleet used").isGreaterThan(0.3);
    }

    static void keepsWithinTheCarriersQuotaAndUsesIt(Fleet fleet) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        load(fleet, client, 3, new Latencies()); // both instances warmed up (JIT, connections): not measured
        long[] before = carrier(fleet, client);
        Latencies latencies = new Latencies();
        double seconds = load(fleet, client, RUN_SECONDS, latencies);
        long[] after = carrier(fleet, client);
        long accepted = after[0] - before[0];
        long carrierRefused = after[1] - before[1];
        long quota = after[2];
        List<Long> admitted = sorted(latencies.admitted);
        List<Long> refused = sorted(latencies.refused);
        System.out.printf("carrier quota, two instances, %d callers each, %.1f s: carrier accepted %d (%.1f/s of %d/s,"
                + " %.2f of the limit of %d/s), refused %d; gateway admitted %d (latency p50 %d ms, p99 %d ms, max %d ms),"
                + " refused %d (p50 %d ms, p99 %d ms, max %d ms), other %s%n", CALLERS_PER_INSTANCE, seconds, accepted,
                accepted / seconds, quota, accepted / seconds / LIMIT, LIMIT, carrierRefused, admitted.size(),
                at(admitted, 0.5),
                at(admitted, 0.99), at(admitted, 1), refused.size(), at(refused, 0.5), at(refused, 0.99), at(refused, 1),
                latencies.other);

        assertThat(carrierRefused).as("requests the carrier refused (429)").isZero();
        assertThat(latencies.other).as("other answers than 200 and 429").isEmpty();
        assertThat(quota).as("the carrier's quota").isEqualTo(CARRIER_QUOTA);
        assertThat(accepted / seconds / LIMIT).as("the share of its limit the fleet used (bench/carrier-quota.sh measures"
                + " it)").isGreaterThan(0.3);
        assertThat(at(admitted, 1)).as("the longest wait of an admitted call: maxWait 2 s and a margin")
                .isLessThan(2000 + 700);
        assertThat(refused).as("more callers than 2 s of the quota: some are refused").isNotEmpty();
        assertThat(at(refused, 0.5)).as("a refused call does not wait").isLessThan(200);
    }

    /** The gateway's answers by kind, with their latencies in ms. */
    private static final class Latencies {
        final List<Long> admitted = Collections.synchronizedList(new ArrayList<>());
        final List<Long> refused = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> other = Collections.synchronizedList(new ArrayList<>());
    }

    /** Every caller asks for labels for {@code seconds}, a refused one again after 100 ms; the seconds it took. */
    private static double load(Fleet fleet, HttpClient client, long seconds, Latencies latencies)
            throws InterruptedException {
        ExecutorService callers = Executors.newFixedThreadPool(2 * CALLERS_PER_INSTANCE);
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        for (int i = 0; i < 2 * CALLERS_PER_INSTANCE; i++) {
            URI gateway = fleet.instance(i % 2).uri().resolve("/gateway/labels");
            callers.submit(() -> {
                while (System.nanoTime() < end) {
                    long sent = System.nanoTime();
                    HttpResponse<Void> response = client.send(HttpRequest.newBuilder(gateway)
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
                    long millis = (System.nanoTime() - sent) / 1_000_000;
                    switch (response.statusCode()) {
                        case 200 -> latencies.admitted.add(millis);
                        case 429 -> {
                            latencies.refused.add(millis);
                            Thread.sleep(100); // a caller told to come back later backs off: its think time, not a wait for a condition
                        }
                        default -> latencies.other.add(response.statusCode());
                    }
                }
                return null;
            });
        }
        callers.shutdown();
        assertThat(callers.awaitTermination(seconds + 30, TimeUnit.SECONDS)).isTrue();
        return (System.nanoTime() - start) / 1e9;
    }

    /** What the carrier accepted and refused so far, and its quota per second. */
    private static long[] carrier(Fleet fleet, HttpClient client) throws Exception {
        String stats = client.send(HttpRequest.newBuilder(fleet.instance(0).uri().resolve("/carrier-stub/stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher carrier = STATS.matcher(stats);
        assertThat(carrier.matches()).as(stats).isTrue();
        return new long[] { Long.parseLong(carrier.group(1)), Long.parseLong(carrier.group(2)),
                Long.parseLong(carrier.group(3)) };
    }

    private static List<Long> sorted(List<Long> values) {
        List<Long> copy = new ArrayList<>(values);
        Collections.sort(copy);
        return copy;
    }

    private static long at(List<Long> sorted, double quantile) {
        return sorted.isEmpty() ? -1 : sorted.get((int) Math.min(sorted.size() - 1, Math.floor(quantile * sorted.size())));
    }
}
