package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Reply;

/**
 * The calendar window against a real Redis with an injected clock: a quota per day, week or month in a time zone, whole
 * again when the next period starts, whose reset counts to the period's real end across daylight-saving changes, month
 * ends and billing anchors.
 */
class CalendarWindowScriptTest {

    static final ScriptHarness script = new ScriptHarness(Algorithm.CALENDAR_WINDOW);
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @AfterAll
    static void stop() {
        script.close();
    }

    @Test
    void aMonthlyQuotaIsWholeAgainWhenTheMonthStartsInItsZone() {
        LimitDefinition monthly = limit(3, CalendarPeriod.MONTH, BERLIN, 1);
        String key = key();
        long lastSecondOfOctober = micros(LocalDateTime.of(2026, 10, 31, 23, 59, 59), BERLIN);
        for (int i = 0; i < 3; i++) {
            assertThat(decide(lastSecondOfOctober, key, monthly).allowed()).isTrue();
        }
        Reply refused = decide(lastSecondOfOctober, key, monthly);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfterMillis()).as("until midnight in Berlin, one second away").isEqualTo(1000);
        assertThat(decide(lastSecondOfOctober + 999_999, key, monthly).allowed()).isFalse();

        Reply november = decide(lastSecondOfOctober + 1_000_000, key, monthly);
        assertThat(november.allowed()).as("1 November, 00:00 in Berlin: a new month").isTrue();
        assertThat(november.remaining()).isEqualTo(2);
        assertThat(november.resetMillis()).as("November: 30 days of 24 hours in Berlin")
                .isEqualTo(Duration.ofDays(30).toMillis());
    }

    @Test
    void aDayCountsToItsRealMidnightAcrossDaylightSavingChanges() {
        LimitDefinition daily = limit(10, CalendarPeriod.DAY, BERLIN, 1);
        Reply shortDay = decide(micros(LocalDateTime.of(2026, 3, 29, 0, 30), BERLIN), key(), daily);
        assertThat(shortDay.resetMillis()).as("29 March has 23 hours in Berlin: 22.5 h to midnight")
                .isEqualTo(Duration.ofMinutes(22 * 60 + 30).toMillis());
        Reply longDay = decide(micros(LocalDateTime.of(2026, 10, 25, 0, 30), BERLIN), key(), daily);
        assertThat(longDay.resetMillis()).as("25 October has 25 hours in Berlin: 24.5 h to midnight")
                .isEqualTo(Duration.ofMinutes(24 * 60 + 30).toMillis());
    }

    @Test
    void aBillingAnchorOfThe31stRenewsOnTheLastDayOfAShorterMonth() {
        LimitDefinition billed = limit(5, CalendarPeriod.MONTH, ZoneId.of("UTC"), 31);
        String key = key();
        long february27 = micros(LocalDateTime.of(2027, 2, 27, 12, 0), ZoneId.of("UTC"));
        Reply reply = decide(february27, key, billed);
        assertThat(reply.resetMillis()).as("the period from 31 January renews on 28 February")
                .isEqualTo(Duration.ofHours(12).toMillis());
        Reply renewed = decide(micros(LocalDateTime.of(2027, 2, 28, 0, 0), ZoneId.of("UTC")), key, billed);
        assertThat(renewed.remaining()).isEqualTo(4);
        assertThat(renewed.resetMillis()).as("then on 31 March").isEqualTo(Duration.ofDays(31).toMillis());
    }

    @Test
    void aWeekStartsOnItsAnchorDay() {
        LimitDefinition weekly = limit(5, CalendarPeriod.WEEK, ZoneId.of("UTC"), 3); // from Wednesday
        Reply tuesday = decide(micros(LocalDateTime.of(2026, 11, 24, 12, 0), ZoneId.of("UTC")), key(), weekly);
        assertThat(tuesday.resetMillis()).as("Tuesday noon: the week renews on Wednesday at midnight")
                .isEqualTo(Duration.ofHours(12).toMillis());
    }

    @Test
    void aRefundGivesBackWithinItsPeriodOnly() {
        LimitDefinition daily = limit(1, CalendarPeriod.DAY, ZoneId.of("UTC"), 1);
        String key = key();
        long noon = micros(LocalDateTime.of(2026, 11, 24, 12, 0), ZoneId.of("UTC"));
        assertThat(decide(noon, key, daily).allowed()).isTrue();
        assertThat(decide(noon, key, daily).allowed()).isFalse();
        script.refund(noon + 1_000_000, List.of(key), List.of(daily));
        assertThat(decide(noon + 2_000_000, key, daily).allowed()).as("given back the same day").isTrue();
        script.refund(noon + Duration.ofHours(13).toNanos() / 1000, List.of(key), List.of(daily));
        assertThat(decide(noon + Duration.ofHours(13).toNanos() / 1000, key, daily).remaining())
                .as("a refund the next day gives nothing back to it: the new day has its whole quota less this call")
                .isZero();
    }

    private static Reply decide(long nowMicros, String key, LimitDefinition limit) {
        return script.decide(nowMicros, List.of(key), List.of(limit)).get(0);
    }

    private static LimitDefinition limit(long limit, CalendarPeriod period, ZoneId zone, int anchorDay) {
        return LimitDefinition.builder("quota", limit, period.longest().toMillis())
                .algorithm(Algorithm.CALENDAR_WINDOW).calendar(period, zone.getId(), anchorDay).build();
    }

    private static long micros(LocalDateTime time, ZoneId zone) {
        return time.atZone(zone).toInstant().toEpochMilli() * 1000;
    }

    private static String key() {
        return "calendar:" + UUID.randomUUID();
    }
}
