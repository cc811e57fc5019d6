package io.quarkiverse.ratelimit;

import java.util.regex.Pattern;

/**
 * The rules every limit follows, wherever its values come from: an annotation (checked at build time), configuration
 * (checked at start-up, since the environment may set it) or code ({@link RateLimit}, {@link ConcurrencyLimit}). Each
 * rule answers {@code null} when the value is valid, else the reason it is not; the caller names the value's source
 * (the annotation attribute and method, or the property), so one rule has one message everywhere.
 */
public final class LimitRules {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

    private LimitRules() {
    }

    /**
     * A limit, policy or concurrency-limit name, safe in a Redis key and a structured HTTP header: 1 to 100 letters,
     * digits, {@code .}, {@code _} and {@code -}.
     */
    public static String name(String name) {
        return name != null && NAME.matcher(name).matches() ? null
                : "a name is 1 to 100 letters, digits, '.', '_' or '-'";
    }

    /**
     * The largest limit (or burst): the scripts count in Lua numbers, doubles that are exact integers up to 2^53, and
     * the fixed window keeps four times its count in one.
     */
    public static final long MAX_LIMIT = 1_000_000_000_000L;

    /** Units (calls) per window, or calls in flight. */
    public static String limit(long limit) {
        return limit > 0 && limit <= MAX_LIMIT ? null : "it must be greater than zero and at most " + MAX_LIMIT;
    }

    /**
     * The largest limit of the sliding window log, which keeps one sorted-set entry per unit (about 31 bytes in Redis)
     * and writes one per unit of a call's cost, all in one script that holds Redis meanwhile.
     */
    public static final long MAX_LOG_LIMIT = 10_000;

    /** Units per window of a limit of {@code algorithm}: {@link #limit(long)}, and the sliding log's own bound. */
    public static String limit(long limit, Algorithm algorithm) {
        String violation = limit(limit);
        if (violation == null && algorithm == Algorithm.SLIDING_WINDOW_LOG && limit > MAX_LOG_LIMIT) {
            return "the sliding window log keeps an entry per unit, so its limit is at most " + MAX_LOG_LIMIT
                    + "; the sliding window counter takes larger limits";
        }
        return violation;
    }

    /** The window of a rate limit, or the lease of a concurrency limit. */
    public static String durationMillis(long millis) {
        return millis > 0 ? null : "it must be at least 1ms";
    }

    /** Units allowed at once: only the token bucket and GCRA have a burst; 0 means the limit. */
    public static String burst(long burst, Algorithm algorithm) {
        if (burst > MAX_LIMIT) {
            return "a burst is at most " + MAX_LIMIT + " units";
        }
        return burst == 0 || burst > 0 && (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.GCRA) ? null
                : "a burst is a positive number of units, for the token bucket and GCRA only";
    }

    /**
     * How long a call may wait for a later slot: 0 (it may not), or a positive time for the token bucket and GCRA, the
     * two algorithms that can hold a later slot for a call (a reservation) and queue every later call behind it.
     */
    public static String maxWait(long maxWaitMillis, Algorithm algorithm) {
        if (maxWaitMillis < 0) {
            return "it must not be negative (0: a refused call does not wait)";
        }
        return maxWaitMillis == 0 || algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.GCRA ? null
                : "only the token bucket and GCRA can hold a later slot for a call; " + algorithm
                        + " counts calls in windows, where a waiting call would count in one window and run in another";
    }

    /** How late a waiting call may still go at its slot: zero or more. */
    public static String lateSlotTolerance(long toleranceMillis) {
        return toleranceMillis < 0 ? "it must not be negative (0: a waiting call goes at its slot or not at all)" : null;
    }

    /**
     * A calendar period and the day it starts on: {@link Algorithm#CALENDAR_WINDOW} counts per period and every period
     * is counted by it; a week starts on day 1 (Monday) to 7, a month on day 1 to 31, a day at midnight (anchor 1).
     */
    public static String calendar(CalendarPeriod period, int anchorDay, Algorithm algorithm) {
        if (algorithm == Algorithm.CALENDAR_WINDOW && period == CalendarPeriod.NONE) {
            return "a calendar window counts per calendar period: set a period (DAY, WEEK or MONTH) instead of a window";
        }
        if (algorithm != Algorithm.CALENDAR_WINDOW && period != CalendarPeriod.NONE) {
            return "a calendar period is counted by CALENDAR_WINDOW, not " + algorithm + "; leave the algorithm out";
        }
        int lastAnchor = switch (period) {
            case WEEK -> 7;
            case MONTH -> 31;
            case DAY, NONE -> 1;
        };
        return anchorDay >= 1 && anchorDay <= lastAnchor ? null
                : "the anchor day of a " + period + " period is 1" + (lastAnchor > 1 ? " to " + lastAnchor : "")
                        + ", not " + anchorDay;
    }

    /**
     * The largest real cost a call may be settled at ({@link Reservation#settle}, a {@link CostOf}): 10^15 units. Every
     * settlement up to it is charged in full, as debt where it exceeds what is left (a window's count stops at 2^50 units,
     * a token bucket's or GCRA's debt at 100 years of its rate: either refuses every call for longer than any window
     * holds it); a larger one is refused before anything changes.
     */
    public static final long MAX_COST = 1_000_000_000_000_000L;

    /** What a call really cost, known when it ends: 0 up to {@link #MAX_COST}. */
    public static String settledCost(long cost) {
        return cost >= 0 && cost <= MAX_COST ? null
                : "a call's real cost is between 0 and " + MAX_COST + " (LimitRules.MAX_COST), not " + cost
                        + "; nothing was charged";
    }

    /**
     * The cost sent with a decision of a cost the code chose ({@link RateLimiter#tryAcquire}, {@link RateLimiter#reserve}):
     * any cost above {@link #MAX_LIMIT} is above every limit, and is decided as the smallest of them, which every limit
     * refuses as the cost would be (it never fits), so that no arithmetic on it can overflow.
     */
    public static long decidedCost(long cost) {
        return Math.min(cost, MAX_LIMIT + 1);
    }

    /** Units one call consumes: at most what the limit can ever hold (its burst, else the limit). */
    public static String cost(long cost, long limit, long burst) {
        long capacity = burst > 0 ? burst : limit;
        return cost >= 0 && cost <= capacity ? null
                : "it must be between 0 and the limit (" + capacity + "), or no call could ever be admitted";
    }

    /** Fails the programmatic API's builders: {@code subject} names the value, {@code violation} is a rule's answer. */
    static void require(String subject, String violation) {
        if (violation != null) {
            throw new IllegalArgumentException(subject + "; " + violation);
        }
    }
}
