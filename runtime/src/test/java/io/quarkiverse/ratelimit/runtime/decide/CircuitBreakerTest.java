package io.quarkiverse.ratelimit.runtime.decide;

import static io.quarkiverse.ratelimit.CircuitBreakerTransition.State.CLOSED;
import static io.quarkiverse.ratelimit.CircuitBreakerTransition.State.HALF_OPEN;
import static io.quarkiverse.ratelimit.CircuitBreakerTransition.State.OPEN;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.CircuitBreakerTransition;

class CircuitBreakerTest {

    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final List<CircuitBreakerTransition> transitions = new ArrayList<>();
    final CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofSeconds(10), nanos::get, transitions::add);
    final IOException failure = new IOException("connection refused");

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
