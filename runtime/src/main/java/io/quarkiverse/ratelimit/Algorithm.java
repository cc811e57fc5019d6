package io.quarkiverse.ratelimit;

/**
 * How a limit counts calls. Each algorithm is one atomic Lua script run on the Redis server, on the Redis clock.
 */
public enum Algorithm {

    /**
     * Counts calls per window aligned to the clock ({@code [12:00:00, 12:01:00)}, ...). Exact within a window; a client
     * can make up to twice the limit across a window boundary. One integer per tenant and limit.
     */
    FIXED_WINDOW,

    /**
     * Weights the previous aligned window's count by its overlap with the sliding window and adds the current one.
     * Smooths the fixed window's boundary burst at the same cost; never admits more than the limit within one aligned
     * window. One integer per tenant and limit. The default.
     */
    SLIDING_WINDOW_COUNTER,

    /**
     * Keeps one sorted-set entry per admitted unit: exact over any window, memory grows with the limit (bounded by it).
     * For small limits that must never be exceeded in any window.
     */
    SLIDING_WINDOW_LOG,

    /**
     * A bucket of {@code burst} tokens (the limit unless set) refilled continuously at {@code limit} per window: bursts
     * up to the bucket, then a steady rate. It decides exactly as {@link #GCRA} with the same burst (the time the bucket
     * is full again is GCRA's theoretical arrival time) and keeps that time, one integer per tenant and limit.
     */
    TOKEN_BUCKET,

    /**
     * Generic cell rate algorithm: calls spaced by {@code window / limit}, with a burst tolerance of {@code burst} (the
     * limit unless set); exact, sub-second {@code Retry-After}; one integer per tenant and limit (with a fraction of a
     * microsecond when the interval has one).
     */
    GCRA,

    /**
     * Counts calls per calendar period in a time zone: a day from midnight, a week from its first day, a month from its
     * billing anchor day ({@code RateLimited#period()}), as contracts and carrier quotas are written; the quota is whole
     * again when the next period starts, and {@code Retry-After} counts to that moment. Exact within a period, across
     * daylight-saving changes and months of any length. One integer per tenant and limit. Chosen by setting a period,
     * not a window.
     */
    CALENDAR_WINDOW
}
