package io.quarkiverse.ratelimit.deployment.wait;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.awaitility.Awaitility;

import io.netty.util.concurrent.EventExecutor;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * Waiting calls through a stall of every event loop (as a long GC would make): the scenario of the late-slot tests.
 * Real time is its subject (the event loops really stall): it reads the wall clock on purpose.
 */
final class StalledEventLoops {

    private StalledEventLoops() {
    }

    /**
     * Twelve calls 50 ms apart, every event loop stalled 400 ms meanwhile: none of the eleven that waited goes within
     * 30 ms of another.
     */
    static void callsNeverBunchThroughAStall(RateLimiter limiter, Vertx vertx, RateLimit carrier) {
        String tenant = "late-" + UUID.randomUUID();
        Queue<Long> sent = new ConcurrentLinkedQueue<>();
        List<Uni<RateLimitDecision>> calls = new ArrayList<>();
        for (int i = 0; i < 12; i++) { // slots 50 ms apart: 0 to 550 ms
            calls.add(limiter.acquire(carrier, tenant).invoke(decision -> {
                if (decision.allowed()) {
                    sent.add(System.nanoTime());
                }
            }).memoize().indefinitely());
        }
        calls.forEach(call -> call.subscribe().with(decision -> {
        }));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() >= 2);
        // lateness itself is what this tests: every event loop stalls for 400 ms, so the slots due meanwhile come late
        for (EventExecutor loop : ((VertxInternal) vertx).getEventLoopGroup()) {
            loop.execute(() -> {
                try {
                    Thread.sleep(400);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        List<RateLimitDecision> decisions = Uni.join().all(calls).andFailFast().await().atMost(Duration.ofSeconds(10));

        assertThat(decisions).as("every call within its maxWait").allMatch(RateLimitDecision::allowed);
        List<Long> times = new ArrayList<>(sent);
        times.sort(Long::compare);
        assertThat(times).hasSize(12);
        // From the first call that waited: the call admitted at once goes when its answer is read, which on a cold JVM
        // can be tens of ms after Redis decided it, while the waiting calls go on timers set from Redis's decision; a gap
        // measured from it would count that delay, not a slot, as bunching.
        for (int i = 2; i < times.size(); i++) {
            assertThat(Duration.ofNanos(times.get(i) - times.get(i - 1)))
                    .as("call %d went at least the interval (50 ms) less the tolerance and the timers' jitter after"
                            + " the one before", i + 1)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(30));
        }
    }
}
