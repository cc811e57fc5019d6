package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;

/**
 * A limit defined in code, for {@link RateLimiter}: the programmatic counterpart of {@link RateLimited}. Immutable;
 * validated when built.
 *
 * <pre>
 * static final RateLimit EMAILS = RateLimit.of("emails", 100, Duration.ofHours(1)).algorithm(Algorithm.FIXED_WINDOW);
 * </pre>
 *
 * A limit with the same name as an annotated one shares its counter.
 */
public final class RateLimit {

    private final String name;
    private final long limit;
    private final Duration window;
    private final Algorithm algorithm;
    private final FailureMode failureMode;
    private final long burst;
    private final Duration maxWait;
    /** {@code null}: {@code quarkus.rate-limit.late-slot-tolerance}. */
    private final Duration lateSlotTolerance;
    private final CalendarPeriod period;
    private final ZoneId timeZone;
    private final int anchorDay;

    private RateLimit(String name, long limit, Duration window, Algorithm algorithm, FailureMode failureMode,
            long burst, Duration maxWait, Duration lateSlotTolerance, CalendarPeriod period, ZoneId timeZone,
            int anchorDay) {
        this.lateSlotTolerance = lateSlotTolerance;
        this.period = period;
        this.timeZone = timeZone;
        this.anchorDay = anchorDay;
        this.maxWait = maxWait;
        this.name = name;
        this.limit = limit;
        this.window = window;
        this.algorithm = algorithm;
        this.failureMode = failureMode;
        this.burst = burst;
    }

    /**
     * @param name letters, digits, {@code .}, {@code _} and {@code -}; at most 100 characters
     * @param limit calls (units) per window, greater than zero
     * @param window at least one millisecond
     */
    public static RateLimit of(String name, long limit, Duration window) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(window, "window");
        LimitRules.require("name \"" + name + "\"", LimitRules.name(name));
        LimitRules.require("Rate limit '" + name + "' has limit " + limit, LimitRules.limit(limit));
        LimitRules.require("Rate limit '" + name + "' has window " + window, LimitRules.durationMillis(window.toMillis()));
        return new RateLimit(name, limit, window, Algorithm.SLIDING_WINDOW_COUNTER, FailureMode.DEFAULT, 0,
                Duration.ZERO, null, CalendarPeriod.NONE, null, 1);
    }

    /**
     * A quota per calendar period in a time zone ({@link Algorithm#CALENDAR_WINDOW}): 50,000 a day from midnight in
     * {@code Europe/Berlin}, 1,000,000 a month from the first (see {@link #anchorDay(int)} for a billing anchor).
     *
     * @param limit calls (units) per period, greater than zero
     * @param period {@link CalendarPeriod#DAY}, {@link CalendarPeriod#WEEK} or {@link CalendarPeriod#MONTH}
     */
    public static RateLimit of(String name, long limit, CalendarPeriod period, ZoneId timeZone) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(timeZone, "timeZone");
        LimitRules.require("name \"" + name + "\"", LimitRules.name(name));
        LimitRules.require("Rate limit '" + name + "' has limit " + limit, LimitRules.limit(limit));
        LimitRules.require("Rate limit '" + name + "' has period " + period,
                LimitRules.calendar(period, 1, Algorithm.CALENDAR_WINDOW));
        return new RateLimit(name, limit, period.longest(), Algorithm.CALENDAR_WINDOW, FailureMode.DEFAULT, 0,
                Duration.ZERO, null, period, timeZone, 1);
    }

    /** The day a calendar week (1 Monday to 7 Sunday) or month (1 to 31, a billing anchor) starts on; 1 by default. */
    public RateLimit anchorDay(int anchorDay) {
        LimitRules.require("Rate limit '" + name + "' has anchor day " + anchorDay,
                LimitRules.calendar(period, anchorDay, algorithm));
        return new RateLimit(name, limit, window, algorithm, failureMode, burst, maxWait, lateSlotTolerance, period, timeZone,
                anchorDay);
    }

    /** {@link CalendarPeriod#NONE} unless made per calendar period. */
    public CalendarPeriod period() {
        return period;
    }

    /** The calendar period's time zone; {@code null} unless made per calendar period. */
    public ZoneId timeZone() {
        return timeZone;
    }

    public int anchorDay() {
        return anchorDay;
    }

    /** The algorithm; the limit, and a burst and a maximum wait set earlier, must suit it. */
    public RateLimit algorithm(Algorithm algorithm) {
        LimitRules.require("Rate limit '" + name + "' has limit " + limit, LimitRules.limit(limit, algorithm));
        LimitRules.require("Rate limit '" + name + "' has algorithm " + algorithm,
                LimitRules.calendar(period, anchorDay, algorithm));
        LimitRules.require("Rate limit '" + name + "' has burst " + burst, LimitRules.burst(burst, algorithm));
        LimitRules.require("Rate limit '" + name + "' has maxWait " + maxWait,
                LimitRules.maxWait(maxWait.toMillis(), algorithm));
        return new RateLimit(name, limit, window, Objects.requireNonNull(algorithm, "algorithm"), failureMode, burst,
                maxWait, lateSlotTolerance, period, timeZone, anchorDay);
    }

    public RateLimit failureMode(FailureMode failureMode) {
        return new RateLimit(name, limit, window, algorithm, Objects.requireNonNull(failureMode, "failureMode"), burst,
                maxWait, lateSlotTolerance, period, timeZone, anchorDay);
    }

    /**
     * How long {@link RateLimiter#acquire} may wait for a later slot instead of being refused (see
     * {@link RateLimited#maxWait()}); {@link Duration#ZERO}, the default, for never. {@link Algorithm#TOKEN_BUCKET} and
     * {@link Algorithm#GCRA} only: set the algorithm first. {@code tryAcquire} never waits.
     */
    public RateLimit maxWait(Duration maxWait) {
        Objects.requireNonNull(maxWait, "maxWait");
        LimitRules.require("Rate limit '" + name + "' has maxWait " + maxWait,
                LimitRules.maxWait(maxWait.isNegative() ? -1 : maxWait.toMillis(), algorithm));
        return new RateLimit(name, limit, window, algorithm, failureMode, burst, maxWait, lateSlotTolerance, period, timeZone,
                anchorDay);
    }

    /**
     * How late a call of {@link RateLimiter#acquire} that waited for its slot may still go (see
     * {@link RateLimited#lateSlotTolerance()}); without it, {@code quarkus.rate-limit.late-slot-tolerance}.
     */
    public RateLimit lateSlotTolerance(Duration lateSlotTolerance) {
        Objects.requireNonNull(lateSlotTolerance, "lateSlotTolerance");
        LimitRules.require("Rate limit '" + name + "' has lateSlotTolerance " + lateSlotTolerance,
                LimitRules.lateSlotTolerance(lateSlotTolerance.isNegative() ? -1 : lateSlotTolerance.toMillis()));
        return new RateLimit(name, limit, window, algorithm, failureMode, burst, maxWait, lateSlotTolerance, period,
                timeZone, anchorDay);
    }

    /** {@code null} when not set: {@code quarkus.rate-limit.late-slot-tolerance}. */
    public Duration lateSlotTolerance() {
        return lateSlotTolerance;
    }

    /** {@link Duration#ZERO} when not set: {@link RateLimiter#acquire} does not wait. */
    public Duration maxWait() {
        return maxWait;
    }

    /**
     * Units allowed at once for {@link Algorithm#TOKEN_BUCKET} and {@link Algorithm#GCRA} (see RateLimited#burst); set
     * the algorithm first.
     */
    public RateLimit burst(long burst) {
        LimitRules.require("Rate limit '" + name + "' has burst " + burst, LimitRules.burst(burst, algorithm));
        return new RateLimit(name, limit, window, algorithm, failureMode, burst, maxWait, lateSlotTolerance, period, timeZone,
                anchorDay);
    }

    /** 0 when not set: the limit. */
    public long burst() {
        return burst;
    }

    public String name() {
        return name;
    }

    public long limit() {
        return limit;
    }

    public Duration window() {
        return window;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    public FailureMode failureMode() {
        return failureMode;
    }

    @Override
    public String toString() {
        return name + " (" + limit + " per " + window + ", " + algorithm + ")";
    }
}
