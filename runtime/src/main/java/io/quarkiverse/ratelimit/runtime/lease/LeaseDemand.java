package io.quarkiverse.ratelimit.runtime.lease;

/**
 * How fast a key's calls come on this instance: the calls of the last full interval (one lease duration) and of the
 * current one. The slice a lease asks for is what one interval brings, so a lease lasts about its duration.
 */
final class LeaseDemand {

    private final long intervalNanos;
    private long intervalStart;
    private long calls;
    private long lastInterval;
    private volatile long lastCallNanos;

    /** Demand from {@code nowNanos}, with the calls counted before in this interval. */
    LeaseDemand(long intervalNanos, long nowNanos, long calls) {
        this.intervalNanos = intervalNanos;
        this.intervalStart = nowNanos;
        this.lastCallNanos = nowNanos;
        this.calls = calls;
    }

    synchronized void arrived(long nowNanos) {
        roll(nowNanos);
        calls++;
        lastCallNanos = nowNanos;
    }

    /** The calls one lease duration brings, as the last full interval and the current one saw them. */
    synchronized long perLease(long nowNanos) {
        roll(nowNanos);
        return Math.max(lastInterval, calls);
    }

    long lastCallNanos() {
        return lastCallNanos;
    }

    private void roll(long nowNanos) {
        long elapsed = nowNanos - intervalStart;
        if (elapsed >= intervalNanos) {
            // an interval long past brought nothing since: what the last one saw, spread over all the time since
            lastInterval = elapsed >= 2 * intervalNanos ? calls * intervalNanos / elapsed : calls;
            calls = 0;
            intervalStart = nowNanos;
        }
    }
}
