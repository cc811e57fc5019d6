package io.quarkiverse.ratelimit.runtime.lease;

/**
 * How fast a key's units are asked for on this instance (its calls' costs): those of the last full interval (one lease
 * duration) and of the current one. The slice a lease asks for is what one interval asks for, so a lease lasts about
 * its duration.
 */
final class LeaseDemand {

    private final long intervalNanos;
    private long intervalStart;
    private long units;
    private long lastInterval;
    private volatile long lastCallNanos;

    /** Demand from {@code nowNanos}, with the units asked for before in this interval. */
    LeaseDemand(long intervalNanos, long nowNanos, long units) {
        this.intervalNanos = intervalNanos;
        this.intervalStart = nowNanos;
        this.lastCallNanos = nowNanos;
        this.units = units;
    }

    /** A call of {@code cost} units. */
    synchronized void arrived(long nowNanos, long cost) {
        roll(nowNanos);
        units += cost;
        lastCallNanos = nowNanos;
    }

    /** The units one lease duration asks for, as the last full interval and the current one saw them. */
    synchronized long perLease(long nowNanos) {
        roll(nowNanos);
        return Math.max(lastInterval, units);
    }

    long lastCallNanos() {
        return lastCallNanos;
    }

    private void roll(long nowNanos) {
        long elapsed = nowNanos - intervalStart;
        if (elapsed >= intervalNanos) {
            // an interval long past brought nothing since: what the last one saw, spread over all the time since
            lastInterval = elapsed >= 2 * intervalNanos ? units * intervalNanos / elapsed : units;
            units = 0;
            intervalStart = nowNanos;
        }
    }
}
