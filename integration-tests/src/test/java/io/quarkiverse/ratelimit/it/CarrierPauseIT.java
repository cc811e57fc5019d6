package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A pause on a fleet: two packaged instances send their calls to one carrier through the gateway's limited REST Client
 * (48 a second, one queue), and the carrier announces an outage of 2 s to one call (429 or 503, its retry time in
 * seconds or as an HTTP date). From the moment the answer left the carrier, no call of either instance reaches it
 * until the outage ends (but those already on their way, {@code CarrierOutages.IN_FLIGHT_MILLIS}: 250 ms); then the calls go
 * on.
 * <p>
 * Real time is this test's subject (the carrier times its outage on the wall clock, across processes): it reads the wall clock
 * on purpose.
 */
class CarrierPauseIT {

    private static final Pattern OUTAGE = Pattern.compile(
            "announced=(\\d) arrived=(\\d+) arrived-after-bound=(\\d+) latest-sent-ms=(\\d+)");
    private static final Pattern ACCEPTED = Pattern.compile("accepted=(\\d+) .*");

    @RegisterExtension
    static final Fleet fleet = Fleet.of(CarrierQuotaIT::twoInstancesOnOneCarrier);

    @ParameterizedTest(name = "{0}, Retry-After as a date: {1}")
    @CsvSource({ "429, false", "503, false", "503, true" })
    void nothingReachesTheCarrierFromAnyInstanceUntilThePauseEnds(int status, boolean date) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        Map<Integer, Integer> answers = new ConcurrentHashMap<>();
        ExecutorService callers = Executors.newFixedThreadPool(64);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (int i = 0; i < 64; i++) {
            URI gateway = fleet.instance(i % 2).uri().resolve("/gateway/labels");
            callers.submit(() -> {
                while (System.nanoTime() < end) {
                    int answer = client.send(HttpRequest.newBuilder(gateway).POST(HttpRequest.BodyPublishers.noBody())
                            .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                    answers.merge(answer, 1, Integer::sum);
                }
                return null;
            });
        }
        // the queue in its steady state (a second of the quota served), then the carrier's outage
        long started = accepted(client);
        Awaitility.await("the queue served").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> accepted(client) - started >= 48);
        client.send(HttpRequest.newBuilder(stub("/carrier-stub/outage?status=" + status + "&seconds=2&date=" + date))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        long acceptedBefore = accepted(client);
        callers.shutdown();
        assertThat(callers.awaitTermination(40, TimeUnit.SECONDS)).isTrue();

        Matcher outage = OUTAGE.matcher(get(client, "/carrier-stub/outage"));
        assertThat(outage.matches()).isTrue();
        System.out.printf("carrier outage %d (date: %b): %s; gateway answers %s%n", status, date, outage.group(),
                answers);
        assertThat(outage.group(1)).as("the carrier announced the outage").isEqualTo("1");
        assertThat(Long.parseLong(outage.group(3))).as("calls that reached the carrier during the pause, after the"
                + " ones already on their way").isZero();
        assertThat(accepted(client) - acceptedBefore).as("the calls went on after the pause: about 2 s of 48 a second")
                .isGreaterThanOrEqualTo(30);
        assertThat(answers.keySet()).as("each call served, refused by the limit (429) or by the carrier's outage (503),"
                + " never a 500").isSubsetOf(200, 429, 503);
    }

    private static long accepted(HttpClient client) throws Exception {
        Matcher stats = ACCEPTED.matcher(get(client, "/carrier-stub/stats"));
        assertThat(stats.matches()).isTrue();
        return Long.parseLong(stats.group(1));
    }

    private static String get(HttpClient client, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(stub(path)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static URI stub(String path) {
        return fleet.instance(0).uri().resolve(path);
    }
}
