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
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Reservation;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Costs at their bounds, in every algorithm, on Redis: a settlement up to {@link LimitRules#MAX_COST} is charged in full
 * as debt (none wraps around and gives the budget back); a larger one is refused before anything changes; a cost
 * above the limit is refused, consuming nothing, with no retry time, whether it is tried, waited for or reserved.
 */
class CostBoundsTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest();

    @Inject
    RateLimiter limiter;

    /** 1,000 a day in each algorithm. */
    static RateLimit perDay(Algorithm algorithm) {
        String name = "bounds-" + algorithm.name().toLowerCase().replace('_', '-');
        return algorithm == Algorithm.CALENDAR_WINDOW ? RateLimit.of(name, 1000, CalendarPeriod.DAY, ZoneOffset.UTC)
                : RateLimit.of(name, 1000, Duration.ofDays(1)).algorithm(algorithm);
    }

    /** What each algorithm is settled at, each way: the blocking settlement and the {@code Uni}. */
    static final long[] CHARGED = { 100_000_000L, 1_000_000_000_000L, LimitRules.MAX_COST };
    static final long[] REFUSED = { LimitRules.MAX_COST + 1, 1L << 52, Long.MAX_VALUE, -1 };

    @Test
    void aSettlementUpToTheLargestCostIsChargedAsDebt() {
        for (Algorithm algorithm : Algorithm.values()) {
            for (long realCost : CHARGED) {
                for (boolean blocking : new boolean[] { true, false }) {
                    settledAsDebt(perDay(algorithm), realCost, blocking,
                            algorithm + " settled at " + realCost + (blocking ? ", blocking" : ", Uni"));
                }
            }
        }
    }

    private void settledAsDebt(RateLimit limit, long realCost, boolean blocking, String what) {
        String tenant = tenant();
        Reservation reservation = limiter.reserveAndAwait(limit, tenant, 100);
        assertThat(reservation.admitted()).as(what).isTrue();

        List<RateLimitDecision> settled = settle(reservation, realCost, blocking);

        assertThat(settled.get(0).allowed()).as(what + ": in debt").isFalse();
        assertThat(settled.get(0).remaining()).as(what).isZero();
        Reservation next = limiter.reserveAndAwait(limit, tenant, 100);
        assertThat(next.admitted()).as(what + ": the next reservation is refused until the debt is paid back").isFalse();
        assertThat(next.decisions().get(0).retryAfter()).as(what).isPositive();
        assertThat(limiter.tryAcquireAndAwait(limit, tenant, 1).allowed()).as(what).isFalse();
        assertThat(limiter.statusAndAwait(limit, tenant).remaining()).as(what).isZero();
    }

    @Test
    void aSettlementBeyondTheLargestCostIsRefusedAndChargesNothing() {
        for (Algorithm algorithm : Algorithm.values()) {
            for (long realCost : REFUSED) {
                for (boolean blocking : new boolean[] { true, false }) {
                    refusedSettlement(perDay(algorithm), realCost, blocking,
                            algorithm + " settled at " + realCost + (blocking ? ", blocking" : ", Uni"));
                }
            }
        }
    }

    private void refusedSettlement(RateLimit limit, long realCost, boolean blocking, String what) {
        String tenant = tenant();
        Reservation reservation = limiter.reserveAndAwait(limit, tenant, 100);

        assertThatThrownBy(() -> settle(reservation, realCost, blocking)).as(what)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(Long.toString(LimitRules.MAX_COST))
                .hasMessageContaining("nothing was charged");

        assertThat(limiter.statusAndAwait(limit, tenant).remaining()).as(what + ": as reserved").isEqualTo(900);
        assertThat(reservation.settleAndAwait(40).get(0).remaining()).as(what + ": still settled at its real cost")
                .isEqualTo(960);
    }

    @Test
    void aCostAboveTheLimitIsRefusedWithNoRetryTimeAndConsumesNothing() {
        for (Algorithm algorithm : Algorithm.values()) {
            RateLimit limit = perDay(algorithm);
            String tenant = tenant();
            List<RateLimitDecision> refusals = new ArrayList<>();
            refusals.add(limiter.tryAcquireAndAwait(limit, tenant, 2000));
            refusals.add(limiter.tryAcquire(limit, tenant, Long.MAX_VALUE).await().atMost(Duration.ofSeconds(10)));
            Reservation reservation = limiter.reserveAndAwait(limit, tenant, 2000);
            assertThat(reservation.admitted()).as(algorithm.toString()).isFalse();
            refusals.add(reservation.decisions().get(0));
            if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.GCRA) {
                refusals.add(limiter.acquireAndAwait(limit.maxWait(Duration.ofSeconds(1)), tenant, 2000));
            }

            assertThat(refusals).as(algorithm.toString()).allSatisfy(refusal -> {
                assertThat(refusal.allowed()).isFalse();
                assertThat(refusal.retryAfter()).as("it never fits").isNull();
                assertThat(refusal.remaining()).isEqualTo(1000);
            });
            assertThat(limiter.statusAndAwait(limit, tenant).remaining()).as(algorithm + ": nothing consumed")
                    .isEqualTo(1000);
        }
    }

    private static List<RateLimitDecision> settle(Reservation reservation, long realCost, boolean blocking) {
        return blocking ? reservation.settleAndAwait(realCost)
                : reservation.settle(realCost).await().atMost(Duration.ofSeconds(10));
    }

    private static String tenant() {
        return "bounds-" + UUID.randomUUID();
    }
}
