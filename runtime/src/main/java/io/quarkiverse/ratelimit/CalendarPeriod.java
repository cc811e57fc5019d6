package io.quarkiverse.ratelimit;

import java.time.Duration;

/**
 * A calendar period of {@link Algorithm#CALENDAR_WINDOW}: the quota of a contract or a carrier account, whole again
 * when the next period starts in the limit's time zone.
 */
public enum CalendarPeriod {

    /** Not a calendar period: the limit has a {@code window}. */
    NONE,

    /** From midnight to midnight. */
    DAY,

    /** From the start of the anchor day of the week (1 Monday, the default, to 7 Sunday) to the next. */
    WEEK,

    /**
     * From the start of the anchor day of the month (1, the default, to 31; in a shorter month its last day: a billing
     * anchor of the 31st renews on 28 February) to the next.
     */
    MONTH;

    /**
     * The longest such period (a day of 24 hours, a week, a month of 31 days): the window a limit names in its
     * {@code RateLimit-Policy} header; the real reset, in {@code RateLimit} and {@code Retry-After}, is the period's end.
     */
    public Duration longest() {
        return switch (this) {
            case NONE -> Duration.ZERO;
            case DAY -> Duration.ofDays(1);
            case WEEK -> Duration.ofDays(7);
            case MONTH -> Duration.ofDays(31);
        };
    }
}
