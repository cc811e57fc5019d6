package io.quarkiverse.ratelimit.runtime.limit;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.quarkiverse.ratelimit.CalendarPeriod;

/**
 * Where the calendar periods of a {@link io.quarkiverse.ratelimit.Algorithm#CALENDAR_WINDOW} start, by the time zone's
 * rules (daylight saving, months of 28 to 31 days, a billing anchor day): what {@code lua/calendar_window.lua} is sent
 * instead of a window length. Four boundaries around this instance's clock, the periods before, of and after now, so
 * that the script can pick the period that holds the Redis clock. Computed once per period and zone, then read.
 */
public final class CalendarBoundaries {

    private record Calendar(CalendarPeriod period, String zone, int anchorDay) {
    }

    /** The boundaries of the period that held the clock last, valid while the clock stays in that period. */
    private record Current(long fromMillis, long untilMillis, String boundaries) {
    }

    /** One per calendar, shared by the limits that count in it (made when a limit is, never per call). */
    private static final ConcurrentMap<Calendar, CalendarBoundaries> CALENDARS = new ConcurrentHashMap<>();

    private final CalendarPeriod period;
    private final ZoneId zone;
    private final int anchorDay;
    private volatile Current current;

    private CalendarBoundaries(Calendar calendar) {
        this.period = calendar.period();
        this.zone = ZoneId.of(calendar.zone());
        this.anchorDay = calendar.anchorDay();
    }

    /** The boundaries of the periods of {@code period} in {@code zone}, starting on {@code anchorDay}. */
    static CalendarBoundaries of(CalendarPeriod period, String zone, int anchorDay) {
        return CALENDARS.computeIfAbsent(new Calendar(period, zone, anchorDay), CalendarBoundaries::new);
    }

    /** The script's window argument at {@code nowMillis}: {@code "b0 b1 b2 b3"}, ms since the epoch. */
    public String around(long nowMillis) {
        Current held = current;
        if (held == null || nowMillis < held.fromMillis() || nowMillis >= held.untilMillis()) {
            long[] boundaries = boundaries(period, zone, anchorDay, Instant.ofEpochMilli(nowMillis));
            held = new Current(boundaries[1], boundaries[2],
                    boundaries[0] + " " + boundaries[1] + " " + boundaries[2] + " " + boundaries[3]);
            current = held;
        }
        return held.boundaries();
    }

    /** The starts of the period before {@code now}'s, of its own, of the next and of the one after, in ms. */
    static long[] boundaries(CalendarPeriod period, ZoneId zone, int anchorDay, Instant now) {
        LocalDate start = start(period, anchorDay, LocalDate.ofInstant(now, zone));
        LocalDate before = start(period, anchorDay, start.minusDays(1));
        LocalDate next = next(period, anchorDay, start);
        LocalDate after = next(period, anchorDay, next);
        return new long[] { millis(before, zone), millis(start, zone), millis(next, zone), millis(after, zone) };
    }

    /** The first day of the period that holds {@code day}. */
    static LocalDate start(CalendarPeriod period, int anchorDay, LocalDate day) {
        return switch (period) {
            case DAY -> day;
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.of(anchorDay)));
            case MONTH -> {
                LocalDate anchor = anchor(YearMonth.from(day), anchorDay);
                yield anchor.isAfter(day) ? anchor(YearMonth.from(day).minusMonths(1), anchorDay) : anchor;
            }
            case NONE -> throw new IllegalArgumentException("not a calendar period");
        };
    }

    private static LocalDate next(CalendarPeriod period, int anchorDay, LocalDate start) {
        return switch (period) {
            case DAY -> start.plusDays(1);
            case WEEK -> start.plusWeeks(1);
            case MONTH -> anchor(YearMonth.from(start).plusMonths(1), anchorDay);
            case NONE -> throw new IllegalArgumentException("not a calendar period");
        };
    }

    /** The anchor day of {@code month}, or its last day when the month is shorter. */
    private static LocalDate anchor(YearMonth month, int anchorDay) {
        return month.atDay(Math.min(anchorDay, month.lengthOfMonth()));
    }

    /** The start of {@code day} in {@code zone} (its first instant, where daylight saving skips midnight). */
    private static long millis(LocalDate day, ZoneId zone) {
        return day.atStartOfDay(zone).toInstant().toEpochMilli();
    }
}
