package io.quarkiverse.ratelimit.runtime.redis.model;

import io.quarkiverse.ratelimit.Algorithm;

/**
 * A plain Java reference model of one limit's key, written from the algorithm's specification (the algorithms page and
 * the contract at the top of each Lua module) in exact arithmetic on a microsecond clock. It also models the key's
 * expiry as Redis does it ({@code PX} from the millisecond the write happens; a key is gone once the clock's
 * millisecond is past its expiry), so a test can let Redis keep keys while the test's clock decides when they expire.
 */
public abstract class LimitModel {

    /** What a key's time to live should read right after an operation. */
    public static final long ABSENT = -2, NO_EXPIRY = -1;

    protected final long limit;
    protected final long windowUs;
    /** The burst, the limit when none is configured. */
    protected final long burst;

    private Long expiresAtMs;
    private long ttlAfterLastWrite = ABSENT;

    protected LimitModel(long limit, long windowMillis, long burst) {
        this.limit = limit;
        this.windowUs = windowMillis * 1000;
        this.burst = burst == 0 ? limit : burst;
    }

    public static LimitModel of(Algorithm algorithm, long limit, long windowMillis, long burst) {
        return switch (algorithm) {
            case FIXED_WINDOW -> new FixedWindowModel(limit, windowMillis);
            case SLIDING_WINDOW_COUNTER -> new SlidingWindowCounterModel(limit, windowMillis);
            case SLIDING_WINDOW_LOG -> new SlidingWindowLogModel(limit, windowMillis);
            case TOKEN_BUCKET -> new TokenBucketModel(limit, windowMillis, burst);
            case GCRA -> new GcraModel(limit, windowMillis, burst);
            // periods by a zone's rules: CalendarWindowScriptTest checks it against java.time
            case CALENDAR_WINDOW -> throw new IllegalArgumentException("the calendar window has no model");
        };
    }

    /** The reply a call of {@code cost} gets at {@code nowUs}; {@link Check#commit()} records it when admitted. */
    public abstract Check check(long nowUs, long cost);

    /** Gives back {@code cost} at {@code nowUs}. */
    public abstract void refund(long nowUs, long cost);

    /** Charges {@code cost} more at {@code nowUs}, beyond the limit if need be: a settled overrun's debt. */
    public abstract void charge(long nowUs, long cost);

    /** Whether the key exists. */
    public abstract boolean present();

    /** Forgets the state (the key expired or was deleted). */
    protected abstract void clear();

    /** Lets the key expire if its time has come at {@code nowUs}; whether it did. */
    public boolean expire(long nowUs) {
        if (present() && expiresAtMs != null && nowUs / 1000 > expiresAtMs) {
            clear();
            expiresAtMs = null;
            ttlAfterLastWrite = ABSENT;
            return true;
        }
        return false;
    }

    /**
     * The time to live the last operation left, in ms, {@link #ABSENT}, or {@link #NO_EXPIRY} when it kept the
     * expiry (which a test that removes expiries after each operation then reads as none).
     */
    public long ttlAfterLastOperation() {
        return present() ? ttlAfterLastWrite : ABSENT;
    }

    /** The write set the key's expiry to {@code ttlMs} from {@code nowUs}. */
    protected void expiresIn(long nowUs, long ttlMs) {
        expiresAtMs = nowUs / 1000 + ttlMs;
        ttlAfterLastWrite = ttlMs;
    }

    /** A write in a window: the window's first write sets the expiry, later ones keep it (the scripts' KEEPTTL). */
    protected void writtenInWindow(boolean windowWrittenBefore, long nowUs, long ttlMs) {
        if (windowWrittenBefore) {
            keepsExpiry();
        } else {
            expiresIn(nowUs, ttlMs);
        }
    }

    /** The write kept the key's expiry. */
    protected void keepsExpiry() {
        ttlAfterLastWrite = NO_EXPIRY;
    }

    /** The operation wrote nothing; the test saw no expiry left by earlier writes either. */
    public void untouched() {
        ttlAfterLastWrite = present() ? NO_EXPIRY : ABSENT;
    }

    /** Milliseconds, rounded up, of an exact number of microseconds. */
    protected static long ceilMillis(Exact micros) {
        return micros.dividedBy(1000).ceil();
    }

    protected static long ceilMillis(long micros) {
        return -Math.floorDiv(-micros, 1000);
    }

    /** One limit's answer: allowed, remaining, reset and retry-after as the script returns them. */
    public record Reply(boolean allowed, long remaining, long resetMillis, long retryAfterMillis) {
    }

    /** A reply, and what recording it would write (nothing when refused). */
    public record Check(Reply reply, Runnable commit) {

        static Check refused(long remaining, long resetMillis, long retryAfterMillis) {
            return new Check(new Reply(false, remaining, resetMillis, retryAfterMillis), () -> {
            });
        }
    }
}
