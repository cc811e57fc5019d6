package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Waiting calls on a fleet: two instances of the packaged application share the label printer's limit (2 a second,
 * one at a time, {@code maxWait} 3 s). A burst sent to both at once is served in one queue: one call every 500 ms,
 * whichever instance it reached, and what would wait longer than 3 s is refused at once.
 * <p>
 * Real time is this test's subject (the queue's pace, one call every 500 ms, as a client times it): it reads the wall clock on
 * purpose.
 */
class TwoInstancesWaitingIT {

    /**
     * How late a waiting call may still go at its slot. Later than this, a call gives its slot up and takes the next
     * free one, or is refused when that lies beyond its maxWait (the late-slot tests prove it): with the 10 ms default,
     * one timer made late by a busy machine would have a call refused after waiting, not at once. This test is about
     * the queue the two instances share, so it allows the lateness a busy machine shows and counts it in the spacing.
     */
    static final long LATE_SLOT_TOLERANCE_MS = 100;

    @RegisterExtension
    static final Fleet fleet = Fleet.of(redis -> AppInstance.startTwo(redis,
            "quarkus.rate-limit.late-slot-tolerance=" + LATE_SLOT_TOLERANCE_MS + "ms"));

    @Test
    void aBurstOnTwoInstancesIsServedInOneQueueAtTheLimitsRate() {
        HttpClient client = HttpClient.newHttpClient();
        long start = System.nanoTime();
        List<CompletableFuture<long[]>> answers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            HttpRequest request = HttpRequest.newBuilder(fleet.instance(i % 2).uri().resolve("/printer/labels"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build();
            answers.add(client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .thenApply(response -> new long[] { response.statusCode(), System.nanoTime() - start }));
        }
        List<Long> served = new ArrayList<>();
        int refused = 0;
        for (CompletableFuture<long[]> answer : answers) {
            long[] statusAndNanos = answer.join();
            if (statusAndNanos[0] == 200) {
                served.add(statusAndNanos[1] / 1_000_000);
            } else {
                assertThat(statusAndNanos[0]).isEqualTo(429);
                assertThat(statusAndNanos[1] / 1_000_000).as("refused at once, not after waiting").isLessThan(1000);
                refused++;
            }
        }
        served.sort(null);
        System.out.printf("two instances, label printer: served at %s ms, %d refused%n", served, refused);
        assertThat(served).as("slots at 0, 0.5 ... 3 s").hasSizeGreaterThanOrEqualTo(7);
        // from the first call that waited: the one admitted at once is answered when its response is ready, which
        // on a cold instance can be a hundred ms after Redis decided it, while the waiting calls go at their slots
        assertThat(served.get(served.size() - 1) - served.get(1)).as("one call per slot on average: the limit's rate")
                .isGreaterThanOrEqualTo((served.size() - 2) * 500L - LATE_SLOT_TOLERANCE_MS - 100);
        assertThat(refused).as("slots beyond 3 s").isPositive();
        for (int i = 1; i < served.size(); i++) {
            assertThat(served.get(i) - served.get(i - 1))
                    .as("one call every 500 ms across both instances (less the replies' jitter): %s", served)
                    .isGreaterThanOrEqualTo(300);
        }
        assertThat(served.get(served.size() - 1)).as("every call served within maxWait and a margin")
                .isLessThan(3000 + 1000);
    }
}
