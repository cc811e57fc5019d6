package io.quarkiverse.ratelimit;

/**
 * How a limit counts calls. Each algorithm is one atomic Lua script run on the Redis server, on the Redis clock.
 */
public enum Algorithm {

    /**
     * Counts calls per window aligned to the clock ({@code [12:00:00, 12:01:00)}, ...). Exact within a window; a client
     * can make up to twice the limit across a window boundary. One small hash per tenant and limit.
     */
    FIXED_WINDOW,

    /**
     * Weights the previous aligned window's count by its overlap with the sliding window and adds the current one.
     * Smooths the fixed window's boundary burst at the same cost; never admits more than the limit within one aligned
     * window. The default.
     */
    SLIDING_WINDOW_COUNTER,

    /** Keeps one sorted-set entry per admitted call: exact over any window. Not available yet. */
    SLIDING_WINDOW_LOG,

    /** Refills tokens continuously; allows bursts up to the bucket capacity. Not available yet. */
    TOKEN_BUCKET,

    /** Generic cell rate algorithm: evenly spaced calls with a burst tolerance, one key. Not available yet. */
    GCRA;

    /** Whether this version of the extension implements the algorithm; using one that it does not fails the build. */
    public boolean isImplemented() {
        return this == FIXED_WINDOW || this == SLIDING_WINDOW_COUNTER;
    }
}
