package io.quarkiverse.ratelimit.runtime.resilience;

import static io.quarkiverse.ratelimit.CircuitBreakerTransition.State.CLOSED;
import static io.quarkiverse.ratelimit.CircuitBreakerTransition.State.HALF_OPEN;
import static io.quarkiverse.ratelimit.CircuitBreakerTransition.State.OPEN;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;

class CircuitBreakerTest {

    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final List<CircuitBreakerTransition> transitions = new ArrayList<>();
    final CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofSeconds(10), nanos::get, transitions::add);
    final IOException failure = new IOException("connection refused");

    /**
     * Threads that probe, succeed, fail and answer late all at once, while the clock runs past open periods: the
     * transitions the listener sees form one chain (each starts where the one before ended), so an observer never sees
     * OPEN turn CLOSED without HALF_OPEN.
     */
    @Test
    void underConcurrencyTheListenerSeesOneChainOfTransitions() throws InterruptedException {
        Queue<CircuitBreakerTransition> seen = new ConcurrentLinkedQueue<>();
        AtomicLong clock = new AtomicLong();
        CircuitBreaker shared = new CircuitBreaker(2, Duration.ofNanos(50), clock::get, seen::add);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < 200_000; i++) {
                    clock.addAndGet(random.nextInt(3));
                    if (shared.tryAcquirePermission()) {
                        if (random.nextBoolean()) {
                            shared.onSuccess();
                        } else {
                            shared.onFailure(failure);
                        }
                    } else if (random.nextInt(10) == 0) {
                        shared.onSuccess(); // a call sent before the breaker opened, answered late
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(seen).hasSizeGreaterThan(100);
        CircuitBreakerTransition.State current = CLOSED;
        int n = 0;
        for (CircuitBreakerTransition transition : seen) {
            assertThat(transition.from()).as("transition %d of %d: %s", n++, seen.size(), transition)
                    .isEqualTo(current);
            assertThat(transition.from() == OPEN && transition.to() == CLOSED).as("OPEN -> CLOSED").isFalse();
            current = transition.to();
        }
    }

    @Test
    void opensAfterTheThresholdOfConsecutiveFailures() {
        breaker.onFailure(failure);
        breaker.onFailure(failure);
        assertThat(breaker.tryAcquirePermission()).isTrue();
        breaker.onFailure(failure);
        assertThat(breaker.state()).isEqualTo(OPEN);
        assertThat(breaker.tryAcquirePermission()).isFalse();
        assertThat(transitions).containsExactly(new CircuitBreakerTransition(CLOSED, OPEN, failure));
    }

    @Test
    void aSuccessResetsTheCount() {
        breaker.onFailure(failure);
        breaker.onFailure(failure);
        breaker.onSuccess();
        breaker.onFailure(failure);
        breaker.onFailure(failure);
        assertThat(breaker.state()).isEqualTo(CLOSED);
    }

    @Test
    void aLateSuccessOfACallSentBeforeTheBreakerOpenedLeavesItOpen() {
        open();
        breaker.onSuccess();

        assertThat(breaker.state()).isEqualTo(OPEN);
        assertThat(breaker.tryAcquirePermission()).isFalse();
        assertThat(transitions).extracting(CircuitBreakerTransition::to).containsExactly(OPEN);
    }

    @Test
    void afterTheOpenPeriodExactlyOneCallProbes() {
        open();
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(breaker.state()).isEqualTo(HALF_OPEN);
        assertThat(breaker.tryAcquirePermission()).as("a second call while the probe runs").isFalse();
    }

    @Test
    void aSuccessfulProbeClosesAndAFailedOneReopens() {
        open();
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        breaker.tryAcquirePermission();
        breaker.onFailure(failure);
        assertThat(breaker.state()).isEqualTo(OPEN);
        assertThat(breaker.retryAfter()).isEqualTo(Duration.ofSeconds(10));

        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(breaker.tryAcquirePermission()).isTrue();
        breaker.onSuccess();
        assertThat(breaker.state()).isEqualTo(CLOSED);
        assertThat(breaker.tryAcquirePermission()).isTrue();
        assertThat(transitions).extracting(CircuitBreakerTransition::to)
                .containsExactly(OPEN, HALF_OPEN, OPEN, HALF_OPEN, CLOSED);
    }

    @Test
    void retryAfterIsTheRestOfTheOpenPeriod() {
        open();
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        assertThat(breaker.retryAfter()).isEqualTo(Duration.ofSeconds(6));
    }

    private void open() {
        for (int i = 0; i < 3; i++) {
            breaker.onFailure(failure);
        }
        assertThat(breaker.state()).isEqualTo(OPEN);
    }
}
