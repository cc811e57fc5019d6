package io.quarkiverse.ratelimit.runtime.redis.model;

import java.util.ArrayList;
import java.util.List;

/** Every admitted unit, by time; a call fits when the units of the last window plus its cost are within the limit. */
final class SlidingWindowLogModel extends LimitModel {

    /** The time of each unit, oldest first. */
    private final List<Long> units = new ArrayList<>();

    SlidingWindowLogModel(long limit, long windowMillis) {
        super(limit, windowMillis, 0);
    }

    /** The units inside the window ending now: later than {@code now - window}. */
    private List<Long> inWindow(long nowUs) {
        return units.stream().filter(at -> at > nowUs - windowUs).toList();
    }

    @Override
    public Check check(long nowUs, long cost) {
        List<Long> counted = inWindow(nowUs);
        int used = counted.size();
        if (used + cost > limit) {
            if (cost > limit) {
                return Check.refused(Math.max(0, limit - used), windowUs / 1000, -1);
            }
            long blocking = counted.get((int) (used + cost - limit - 1));
            long newest = units.get(units.size() - 1);
            return Check.refused(Math.max(0, limit - used), Math.max(1, ceilMillis(newest + windowUs - nowUs)),
                    Math.max(1, ceilMillis(blocking + windowUs - nowUs)));
        }
        return new Check(new Reply(true, limit - used - cost, windowUs / 1000, 0), () -> {
            units.removeIf(at -> at <= nowUs - windowUs);
            for (long n = 0; n < Math.min(cost, 2 * limit); n++) { // a debt beyond one limit's worth refuses nothing more
                units.add(nowUs);
            }
            expiresIn(nowUs, windowUs / 1000);
        });
    }

    @Override
    public void refund(long nowUs, long cost) {
        for (long n = 0; n < cost && !units.isEmpty(); n++) {
            units.remove(units.size() - 1);
        }
        untouched();
    }

    @Override
    public void charge(long nowUs, long cost) {
        units.removeIf(at -> at <= nowUs - windowUs);
        for (long n = 0; n < Math.min(cost, 2 * limit); n++) { // a debt beyond one limit's worth refuses nothing more
            units.add(nowUs);
        }
        expiresIn(nowUs, windowUs / 1000);
    }

    @Override
    public boolean present() {
        return !units.isEmpty();
    }

    @Override
    protected void clear() {
        units.clear();
    }
}
