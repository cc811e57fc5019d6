package io.quarkiverse.ratelimit.runtime.redis.model;

/** At most {@code limit} units in each window aligned to the epoch; a refund gives back within the call's window. */
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
        long counted = sameWindow ? used : 0;
        if (counted + cost > limit) {
            return Check.refused(limit - counted, reset, cost > limit ? -1 : reset);
        }
        return new Check(new Reply(true, limit - counted - cost, reset, 0), () -> {
            window = current;
            used = counted + cost;
            writtenInWindow(sameWindow, nowUs, reset);
        });
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
