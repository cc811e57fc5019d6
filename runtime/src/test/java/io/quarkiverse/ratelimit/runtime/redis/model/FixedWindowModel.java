package io.quarkiverse.ratelimit.runtime.redis.model;

/**
 * At most {@code limit} units in each window aligned to the epoch; a refund gives back within the call's window; a
 * charged overrun counts beyond the limit, and what a window used beyond its limit the next window starts with.
 */
final class FixedWindowModel extends LimitModel {

    private long window = -1;
    private long used;

    FixedWindowModel(long limit, long windowMillis) {
        super(limit, windowMillis, 0);
    }

    @Override
    public Check check(long nowUs, long cost) {
        long current = Math.floorDiv(nowUs, windowUs);
        long reset = ceilMillis((current + 1) * windowUs - nowUs);
        boolean sameWindow = present() && window == current;
        long counted = counted(current);
        if (counted + cost > limit) {
            long retry = cost > limit ? -1 : sameWindow && counted - limit + cost > limit ? reset + windowUs / 1000 : reset;
            return Check.refused(Math.max(0, limit - counted), reset, retry);
        }
        return new Check(new Reply(true, limit - counted - cost, reset, 0), () -> {
            window = current;
            used = counted + cost;
            writtenInWindow(sameWindow, nowUs, reset);
        });
    }

    /** What window {@code current} has used: its count, or the previous window's debt. */
    private long counted(long current) {
        if (present() && window == current) {
            return used;
        }
        return present() && window == current - 1 ? Math.max(0, used - limit) : 0;
    }

    @Override
    public void charge(long nowUs, long cost) {
        long current = Math.floorDiv(nowUs, windowUs);
        long reset = ceilMillis((current + 1) * windowUs - nowUs);
        used = counted(current) + cost;
        window = current;
        expiresIn(nowUs, used > limit ? reset + windowUs / 1000 : reset);
    }

    @Override
    public void refund(long nowUs, long cost) {
        if (present() && window == Math.floorDiv(nowUs, windowUs)) {
            used = Math.max(0, used - cost);
            keepsExpiry();
        } else {
            untouched();
        }
    }

    @Override
    public boolean present() {
        return window >= 0;
    }

    @Override
    protected void clear() {
        window = -1;
        used = 0;
    }
}
