package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/**
 * An adaptive limit on a fleet ({@code LearningCarrierApi}: 50 a second, {@code adaptive = true}): two packaged
 * instances, one Redis, and a carrier that announces 50 requests a second but grants 30 (the first instance's stub). The
 * carrier's 429s lower the fleet's limit until only a try for more now and then meets one; then the carrier grants 50
 * again and the fleet climbs back.
 * The carrier's accepted and refused calls are sampled every second. The learning is quickened for the test: the
 * learned limit holds 1 s after a 429, at most 10 s, and grows every second.
 * <p>
 * Real time is this test's subject (the carrier grants a rate per wall-clock second, across processes): it reads the wall clock
 * on purpose.
 */
class LearningCarrierIT {

    private static final int CALLERS_PER_INSTANCE = 32;
    private static final Pattern STATS = Pattern.compile("accepted=(\\d+) refused=(\\d+) per-second=(\\d+)");
    private static final Pattern LEARNED = Pattern
            .compile("(?m)^rate_limit_adaptive_limit\\{.*limit=\"learning-carrier-api\".*} ([0-9.E]+)$");

    @RegisterExtension
    static final Fleet fleet = Fleet.of(LearningCarrierIT::twoInstancesOnACarrierGranting30);

    static List<AppInstance> twoInstancesOnACarrierGranting30(LocalRedisServer redis) {
        return CarrierFleet.start(redis, List.of("learning-carrier-api"), "carrier-stub.per-second=30",
                "quarkus.rate-limit.adaptive.increase-interval=1s", "quarkus.rate-limit.adaptive.longest-hold=10s");
    }

    @Test
    void theFleetLearnsTheQuotaTheCarrierReallyGrantsAndClimbsBackWhenItGrantsMore() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        Map<Integer, Integer> answers = new ConcurrentHashMap<>();
        // about every second: when (ms from the start), accepted, refused, and each instance's learned limit
        List<long[]> samples = new ArrayList<>();
        long started = System.nanoTime();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> {
            try {
                long[] stats = carrier(client);
                long[] sample = { (System.nanoTime() - started) / 1_000_000, stats[0], stats[1],
                        Math.round(learned(client, 0)), Math.round(learned(client, 1)) };
                synchronized (samples) {
                    samples.add(sample);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, 0, 1, TimeUnit.SECONDS);
        // at 25 s the carrier grants 50 again: what the fleet learned meanwhile is read just before
        ScheduledFuture<Double> learnedAt25 = sampler.schedule(() -> {
            double learned = learned(client, 0);
            post(client, "/carrier-stub/quota?per-second=50");
            return learned;
        }, 25, TimeUnit.SECONDS);
        ExecutorService callers = Executors.newFixedThreadPool(2 * CALLERS_PER_INSTANCE);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
        for (int i = 0; i < 2 * CALLERS_PER_INSTANCE; i++) {
            URI gateway = fleet.instance(i % 2).uri().resolve("/gateway/learning-labels");
            callers.submit(() -> {
                while (System.nanoTime() < end) {
                    int status = client.send(HttpRequest.newBuilder(gateway).POST(HttpRequest.BodyPublishers.noBody())
                            .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                    answers.merge(status, 1, Integer::sum);
                    if (status != 200) {
                        Thread.sleep(100); // a refused caller's think time, not a wait for a condition
                    }
                }
                return null;
            });
        }
        callers.shutdown();
        assertThat(callers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        double learnedWhileGranting30 = learnedAt25.get();
        sampler.shutdown();
        assertThat(sampler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();

        StringBuilder timeline = new StringBuilder();
        for (int i = 1; i < samples.size(); i++) {
            timeline.append(samples.get(i)[1] - samples.get(i - 1)[1]).append('/')
                    .append(samples.get(i)[2] - samples.get(i - 1)[2]).append(" (").append(samples.get(i)[3])
                    .append(',').append(samples.get(i)[4]).append(") ");
        }
        System.out.printf("learning carrier, accepted/refused each second (the learned limit of each instance; 30"
                + " granted until 25 s, then 50): %s;"
                + " learned limit at 25 s: %.0f; gateway answers %s%n", timeline, learnedWhileGranting30, answers);

        long[] learning = between(samples, 0, 12);
        long[] settled = between(samples, 15, 25);
        long[] raised = between(samples, 40, 48);
        assertThat(learning[1]).as("the carrier refused the fleet while it learned").isPositive();
        assertThat(settled[1]).as("refusals from 15 to 25 s: a try for more now and then").isLessThanOrEqualTo(5);
        assertThat(settled[0] / 10.0).as("calls a second the carrier accepted from 15 to 25 s, of 30")
                .isGreaterThan(0.5 * 30);
        assertThat(learnedWhileGranting30).as("the learned limit while the carrier grants 30").isBetween(20.0, 34.0);
        assertThat(raised[0] / 8.0).as("calls a second from 40 to 48 s, the carrier granting 50 from 25 s: more than it"
                + " ever granted before").isGreaterThan(Math.max(33.0, 1.2 * settled[0] / 10.0));
        assertThat(answers.keySet()).as("served, refused by the limit, or refused by the carrier: never a 500")
                .isSubsetOf(200, 429, 503);
    }

    /**
     * What the carrier accepted and refused from {@code fromSecond} to {@code toSecond} of the run, by the samples
     * nearest to them (a sample can come late on these shared cores: the span is read from the samples' own times).
     */
    private static long[] between(List<long[]> samples, int fromSecond, int toSecond) {
        long[] from = nearest(samples, fromSecond * 1000L);
        long[] to = nearest(samples, toSecond * 1000L);
        double seconds = (to[0] - from[0]) / 1000.0;
        double scale = seconds <= 0 ? 0 : (toSecond - fromSecond) / seconds;
        return new long[] { Math.round((to[1] - from[1]) * scale), to[2] - from[2] };
    }

    private static long[] nearest(List<long[]> samples, long millis) {
        long[] nearest = samples.get(0);
        for (long[] sample : samples) {
            if (Math.abs(sample[0] - millis) < Math.abs(nearest[0] - millis)) {
                nearest = sample;
            }
        }
        return nearest;
    }

    /** The adaptive limit's learned value on an instance ({@code rate_limit.adaptive.limit}). */
    private static double learned(HttpClient client, int instance) throws Exception {
        String metrics = client.send(HttpRequest.newBuilder(fleet.instance(instance).uri().resolve("/q/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher learned = LEARNED.matcher(metrics);
        assertThat(learned.find()).as("the adaptive limit's gauge").isTrue();
        return Double.parseDouble(learned.group(1));
    }

    private static long[] carrier(HttpClient client) throws Exception {
        String stats = client.send(HttpRequest.newBuilder(fleet.instance(0).uri().resolve("/carrier-stub/stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher carrier = STATS.matcher(stats);
        assertThat(carrier.matches()).as(stats).isTrue();
        return new long[] { Long.parseLong(carrier.group(1)), Long.parseLong(carrier.group(2)) };
    }

    private static void post(HttpClient client, String path) throws Exception {
        client.send(HttpRequest.newBuilder(fleet.instance(0).uri().resolve(path))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
    }
}
