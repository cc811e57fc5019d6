package io.quarkiverse.ratelimit.runtime.redis.model;

/**
 * The previous aligned window's units weigh by the share of it the sliding window still covers; the current
 * window's count fully.
 */
final class SlidingWindowCounterModel extends LimitModel {

    private long window = -1;
    private long current;
    private long previous;

    SlidingWindowCounterModel(long limit, long windowMillis) {
        super(limit, windowMillis, 0);
    }

    @Override
    public Check check(long nowUs, long cost) {
        long now = Math.floorDiv(nowUs, windowUs);
        long elapsed = nowUs - now * windowUs;
        long untilWindowEnd = windowUs - elapsed;
        long inCurrent = 0, inPrevious = 0;
        boolean sameWindow = present() && window == now;
        if (sameWindow) {
            inCurrent = current;
            inPrevious = previous;
        } else if (present() && window == now - 1) {
            inPrevious = current;
        }
        Exact weighted = Exact.ratio(untilWindowEnd, windowUs).times(inPrevious).plus(inCurrent);
        if (weighted.plus(cost).greaterThan(Exact.of(limit))) {
            long retry;
            if (cost > limit) {
                retry = -1;
            } else if (inCurrent + cost <= limit) {
                // until enough of the previous window has slid out: inPrevious * (untilEnd - t) / W <= limit - c - cost
                Exact wait = Exact.of(untilWindowEnd)
                        .minus(Exact.of(limit - inCurrent - cost).times(windowUs).dividedBy(inPrevious));
                retry = Math.max(1, ceilMillis(wait));
            } else {
                // into the next window, where this window's count is the weighted one
                Exact wait = Exact.of(untilWindowEnd).plus(windowUs)
                        .minus(Exact.of(limit - cost).times(windowUs).dividedBy(inCurrent));
                retry = Math.max(1, ceilMillis(wait));
            }
            long reset = ceilMillis(untilWindowEnd) + (inCurrent > 0 ? windowUs / 1000 : 0);
            return Check.refused(Math.max(0, Exact.of(limit).minus(weighted).floor()), reset, retry);
        }
        long reset = ceilMillis(untilWindowEnd + windowUs);
        long keptPrevious = inPrevious, counted = inCurrent;
        return new Check(new Reply(true, Exact.of(limit).minus(weighted).minus(cost).floor(), reset, 0), () -> {
            window = now;
            current = counted + cost;
            previous = keptPrevious;
            writtenInWindow(sameWindow, nowUs, reset);
        });
    }

    @Override
    public void refund(long nowUs, long cost) {
        if (present() && window == Math.floorDiv(nowUs, windowUs)) {
            long fromCurrent = Math.min(current, cost);
            current -= fromCurrent;
            previous = Math.max(0, previous - (cost - fromCurrent));
            keepsExpiry();
        } else {
            untouched();
        }
    }

    @Override
    public void charge(long nowUs, long cost) {
        long now = Math.floorDiv(nowUs, windowUs);
        long untilWindowEnd = windowUs - (nowUs - now * windowUs);
        boolean sameWindow = present() && window == now;
        if (!sameWindow) {
            previous = present() && window == now - 1 ? current : 0;
            current = 0;
        }
        current += cost;
        window = now;
        writtenInWindow(sameWindow, nowUs, ceilMillis(untilWindowEnd + windowUs));
    }

    @Override
    public boolean present() {
        return window >= 0;
    }

    @Override
    protected void clear() {
        window = -1;
        current = previous = 0;
    }
}
