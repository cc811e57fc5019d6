package io.quarkiverse.ratelimit.deployment.reserve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.Charge;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Reservation;
import io.quarkiverse.ratelimit.testing.RateLimitTestClock;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Reserve, then settle: a call reserves an estimated cost of its limits (all or nothing), and settles its real cost
 * when it ends; the difference is given back, an overrun charged beyond the limit as debt.
 */
class ReserveThenSettleTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest();

    /** An LLM's budget: tokens per hour (a window no test crosses), requests per hour, tokens per day. */
    static final RateLimit TOKENS = RateLimit.of("llm-tokens", 1000, Duration.ofHours(1))
            .algorithm(Algorithm.FIXED_WINDOW);
    static final RateLimit REQUESTS = RateLimit.of("llm-requests", 5, Duration.ofHours(1))
            .algorithm(Algorithm.FIXED_WINDOW);
    static final RateLimit BUCKET = RateLimit.of("llm-bucket", 1000, Duration.ofHours(1))
            .algorithm(Algorithm.TOKEN_BUCKET);

    /** 1,000 tokens an hour, in windows the test clock moves through. */
    static final RateLimit HOURLY = RateLimit.of("llm-hourly", 1000, Duration.ofHours(1))
            .algorithm(Algorithm.FIXED_WINDOW);

    @Inject
    RateLimiter limiter;

    @Inject
    RateLimitTestClock clock;

    @Test
    void aSettlementGivesBackWhatTheCallDidNotUse() {
        String tenant = tenant();
        Reservation reservation = limiter.reserveAndAwait(TOKENS, tenant, 100);
        assertThat(reservation.admitted()).isTrue();
        assertThat(reservation.decisions().get(0).remaining()).isEqualTo(900);

        List<RateLimitDecision> settled = reservation.settleAndAwait(40);

        assertThat(settled.get(0).remaining()).as("after the settlement").isEqualTo(960);
        assertThat(remaining(TOKENS, tenant)).isEqualTo(960);
    }

    @Test
    void anOverrunIsChargedBeyondTheLimitAndRefusesUntilItIsPaidBack() {
        String tenant = tenant();
        Reservation first = limiter.reserveAndAwait(TOKENS, tenant, 800);
        Reservation second = limiter.reserveAndAwait(TOKENS, tenant, 200);
        assertThat(limiter.reserveAndAwait(TOKENS, tenant, 1).admitted()).as("the budget is reserved").isFalse();

        first.settleAndAwait(1100); // 300 over its estimate
        List<RateLimitDecision> afterSecond = second.settleAndAwait(200);

        assertThat(afterSecond.get(0).remaining()).as("in debt: nothing left").isZero();
        assertThat(afterSecond.get(0).allowed()).isFalse();
        Reservation refused = limiter.reserveAndAwait(TOKENS, tenant, 1);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.decisions().get(0).retryAfter())
                .as("until this window ends: the next one starts with the 300 over and has room for one token")
                .isPositive().isLessThanOrEqualTo(Duration.ofHours(1));
    }

    @Test
    void aTokenBucketInDebtAdmitsAgainOnceTheOverrunIsRefilled() {
        String tenant = tenant();
        limiter.reserveAndAwait(BUCKET, tenant, 1000).settleAndAwait(1360); // 360 tokens of debt: 21.6 min
        Reservation refused = limiter.reserveAndAwait(BUCKET, tenant, 1);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.decisions().get(0).retryAfter()).isBetween(Duration.ofMinutes(21), Duration.ofMinutes(22));
    }

    @Test
    void aMonthlyBudgetCountsAnOverrunInItsMonth() {
        String tenant = tenant();
        RateLimit monthly = RateLimit.of("llm-month", 1000, CalendarPeriod.MONTH, ZoneOffset.UTC);
        List<RateLimitDecision> settled = limiter.reserveAndAwait(monthly, tenant, 100).settleAndAwait(1200);
        assertThat(settled.get(0).remaining()).isZero();
        Reservation refused = limiter.reserveAndAwait(monthly, tenant, 1);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.decisions().get(0).retryAfter()).as("until the month ends")
                .isLessThanOrEqualTo(Duration.ofDays(31));
    }

    @Test
    void chargesAreAllOrNothingAndOnlyTheEstimatedOnesAreSettled() {
        String tenant = tenant();
        List<Charge> call = List.of(Charge.estimated(TOKENS, 100), Charge.fixed(REQUESTS, 1));
        for (int i = 0; i < 5; i++) {
            limiter.reserveAndAwait(call, tenant).settleAndAwait(10);
        }
        assertThat(remaining(TOKENS, tenant)).isEqualTo(950);
        assertThat(remaining(REQUESTS, tenant)).as("one request each, whatever their tokens").isZero();

        Reservation sixth = limiter.reserveAndAwait(call, tenant);
        assertThat(sixth.admitted()).as("the requests are used up").isFalse();
        assertThat(remaining(TOKENS, tenant)).as("a refused reservation takes no tokens").isEqualTo(950);
        assertThat(sixth.settleAndAwait(500).get(0).remaining()).as("settling a refusal changes nothing")
                .isEqualTo(sixth.decisions().get(0).remaining());
        assertThat(remaining(TOKENS, tenant)).isEqualTo(950);
    }

    @Test
    void aCancelledReservationGivesEverythingBack() {
        String tenant = tenant();
        Reservation reservation = limiter.reserveAndAwait(
                List.of(Charge.estimated(TOKENS, 300), Charge.fixed(REQUESTS, 1)), tenant);
        reservation.cancelAndAwait();
        assertThat(remaining(TOKENS, tenant)).isEqualTo(1000);
        assertThat(remaining(REQUESTS, tenant)).isEqualTo(5);
    }

    @Test
    void aReservationIsSettledOrCancelledOnce() {
        Reservation reservation = limiter.reserveAndAwait(TOKENS, tenant(), 100);
        reservation.settleAndAwait(50);
        assertThatThrownBy(() -> reservation.settleAndAwait(50)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(reservation::cancelAndAwait).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> reservation.settle(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> limiter.reserve(List.of(Charge.estimated(TOKENS, 1), Charge.fixed(TOKENS, 1)), "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Two charges of one limit");
    }

    /**
     * 50 calls at once, each reserving 100 tokens of 1,000 a window: exactly 10 are admitted, whatever the timing (the
     * estimates never exceed the budget). Each then used 130: the window is 300 over, and the next window starts with
     * those 300 used.
     */
    @Test
    void concurrentReservationsNeverAdmitBeyondTheBudgetAndTheNextWindowPaysTheOverrunBack() {
        String tenant = tenant();
        // The scenario starts at a window's start (the limits' clock moved there, by what is left of the window now), so
        // that the reservations, their settlements and the reservation in debt all fall in one window: the hour is over
        // long before the test is.
        clock.advance(limiter.status(HOURLY, tenant).await().indefinitely().resetAfter());
        List<Uni<Reservation>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(limiter.reserve(HOURLY, tenant, 100));
        }
        List<Reservation> reservations = Uni.join().all(calls).andFailFast().await().atMost(Duration.ofSeconds(30));
        List<Reservation> admitted = reservations.stream().filter(Reservation::admitted).toList();
        assertThat(admitted).as("reservations admitted").hasSize(10);

        admitted.forEach(reservation -> reservation.settleAndAwait(130));
        assertThat(limiter.reserveAndAwait(HOURLY, tenant, 1).admitted()).as("in debt").isFalse();

        clock.advance(HOURLY.window());
        assertThat(remaining(HOURLY, tenant)).as("the next window starts with the 300 over").isEqualTo(700);
    }

    private long remaining(RateLimit limit, String tenant) {
        return limiter.status(limit, tenant).await().indefinitely().remaining();
    }

    private static String tenant() {
        return "reserve-" + UUID.randomUUID();
    }
}
