package io.quarkiverse.ratelimit.runtime.lease;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * One lease: units of a limit that Redis counted when it leased them, for this instance to admit calls from until the
 * lease ends. Spent concurrently by every call of the key: a unit is taken once, by a call or by the give-back.
 */
final class Slice {

    /** The lease's id in Redis ({@code lua/lease.lua}): a give-back names it. */
    final String id;
    /** The limit as it was when leased: a call of another limit (a run-time limit, another plan) is not admitted here. */
    final LimitDefinition limit;
    /** When the lease ends, in the leases' clock: no call is admitted from it after. */
    final long endsAtNanos;
    /** When the limit's window resets, as Redis answered the lease. */
    private final long resetAtNanos;
    private final AtomicLong units;

    Slice(String id, LimitDefinition limit, long units, long leasedAtNanos, long leaseMillis, Duration resetAfter) {
        this.id = id;
        this.limit = limit;
        this.units = new AtomicLong(units);
        this.endsAtNanos = leasedAtNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.resetAtNanos = leasedAtNanos + resetAfter.toNanos();
    }

    /** Whether a call of {@code call} may be admitted from this lease at {@code nowNanos}. */
    boolean serves(LimitDefinition call, long nowNanos) {
        return nowNanos - endsAtNanos < 0 && sameCounts(limit, call);
    }

    /** Whether a call of {@code call} may be admitted from this lease at {@code nowNanos}, and its cost fits. */
    boolean admits(LimitDefinition call, long nowNanos) {
        return serves(call, nowNanos) && units.get() >= call.getCost();
    }

    /** Takes {@code cost} units; what the slice holds after, or -1 when it holds less than the cost (taking nothing). */
    long take(long cost) {
        while (true) {
            long held = units.get();
            if (held < cost) {
                return -1;
            }
            if (units.compareAndSet(held, held - cost)) {
                return held - cost;
            }
        }
    }

    /** Takes every unit left: no call is admitted from the slice after; what it held, to give back. */
    long drain() {
        return units.getAndSet(0);
    }

    long units() {
        return units.get();
    }

    boolean ended(long nowNanos) {
        return nowNanos - endsAtNanos >= 0;
    }

    /**
     * A call admitted from the slice: what is left is what the slice still holds, the least this instance is sure to
     * admit (Redis and the other instances' slices may hold more; no answer from here can know it).
     */
    RateLimitDecision admitted(long left, long nowNanos) {
        return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), true, left,
                Duration.ofNanos(Math.max(0, resetAtNanos - nowNanos)), Duration.ZERO, false);
    }

    /** Whether two definitions count the same units in the same windows: a lease of one may admit a call of the other. */
    static boolean sameCounts(LimitDefinition a, LimitDefinition b) {
        return a == b || a.getLimit() == b.getLimit() && a.getWindowMillis() == b.getWindowMillis()
                && a.getAlgorithm() == b.getAlgorithm() && a.getName().equals(b.getName())
                && a.getCalendarPeriod() == b.getCalendarPeriod() && Objects.equals(a.getTimeZone(), b.getTimeZone())
                && a.getAnchorDay() == b.getAnchorDay();
    }
}
