package io.quarkiverse.ratelimit.deployment.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;

/** A monthly quota with a billing anchor from code: refused until the next anchor day in its zone. */
class CalendarQuotaFromCodeTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest();

    static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    @Inject
    RateLimiter limiter;

    @Test
    void aMonthlyQuotaRenewsOnItsAnchorDay() {
        int anchor = LocalDate.now(NEW_YORK).getDayOfMonth() == 15 ? 16 : 15;
        RateLimit invoices = RateLimit.of("invoices", 2, CalendarPeriod.MONTH, NEW_YORK).anchorDay(anchor);
        String tenant = UUID.randomUUID().toString();
        limiter.tryAcquireAndAwait(invoices, tenant);
        limiter.tryAcquireAndAwait(invoices, tenant);
        RateLimitDecision refused = limiter.tryAcquireAndAwait(invoices, tenant);
        assertThat(refused.allowed()).isFalse();

        LocalDate today = LocalDate.now(NEW_YORK);
        YearMonth month = YearMonth.from(today);
        LocalDate renewal = today.getDayOfMonth() < anchor ? month.atDay(anchor) : month.plusMonths(1).atDay(anchor);
        Duration untilRenewal = Duration.between(ZonedDateTime.now(NEW_YORK), renewal.atStartOfDay(NEW_YORK));
        assertThat(refused.retryAfter()).as("until the anchor day, %s, in New York", renewal)
                .isBetween(untilRenewal.minusSeconds(5), untilRenewal.plusSeconds(5));
    }

    @Test
    void aCalendarLimitIsMadeByItsPeriod() {
        assertThatThrownBy(() -> RateLimit.of("daily", 10, Duration.ofDays(1)).algorithm(Algorithm.CALENDAR_WINDOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("set a period");
        assertThatThrownBy(() -> RateLimit.of("monthly", 10, CalendarPeriod.MONTH, NEW_YORK).anchorDay(32))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 31");
        assertThatThrownBy(() -> RateLimit.of("daily", 10, CalendarPeriod.DAY, NEW_YORK).algorithm(Algorithm.GCRA))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("counted by CALENDAR_WINDOW");
    }
}
