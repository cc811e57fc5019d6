package io.quarkiverse.ratelimit.deployment.reserve;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Reservation;
import io.quarkiverse.ratelimit.testing.RateLimitTestClock;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A reservation settled later than its lease (a call that hung) changes nothing: it counts at its estimate, as one whose
 * instance stopped before it settled; the caller can tell ({@code settledLate()}), and the metrics count it.
 */
class ReservationLeaseTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest();

    /** A window long enough that the 11 minutes the test moves the time on almost never end it. */
    static final RateLimit TOKENS = RateLimit.of("lease-tokens", 1000, Duration.ofDays(30));

    @Inject
    RateLimiter limiter;

    @Inject
    MeterRegistry registry;

    @Inject
    RateLimitTestClock clock;

    @Test
    void aSettlementAfterTheLeaseLeavesTheEstimate() {
        String tenant = "lease-" + UUID.randomUUID();
        Reservation hung = limiter.reserveAndAwait(TOKENS, tenant, 100);
        clock.advance(Duration.ofMinutes(11)); // beyond the default lease of 10 minutes
        assertThat(hung.settledLate()).as("not settled yet").isFalse();
        assertThat(hung.settleAndAwait(10).get(0).remaining()).as("as reserved").isEqualTo(900);
        assertThat(hung.settledLate()).as("the caller can tell the settlement changed nothing").isTrue();
        assertThat(limiter.status(TOKENS, tenant).await().indefinitely().remaining()).isEqualTo(900);
        assertThat(lateSettlements()).as("counted").isEqualTo(1);

        Reservation prompt = limiter.reserveAndAwait(TOKENS, tenant, 100);
        assertThat(prompt.settleAndAwait(10).get(0).remaining()).as("settled within its lease").isEqualTo(890);
        assertThat(prompt.settledLate()).isFalse();
        assertThat(lateSettlements()).isEqualTo(1);
    }

    private double lateSettlements() {
        Counter late = registry.find("rate_limit.reservation.late_settlements").tag("limit", "lease-tokens").counter();
        return late == null ? 0 : late.count();
    }
}
