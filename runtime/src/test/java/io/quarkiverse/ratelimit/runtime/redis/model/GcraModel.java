package io.quarkiverse.ratelimit.runtime.redis.model;

/**
 * Calls spaced by the emission interval {@code window / limit}, with a tolerance of {@code burst} intervals. The state,
 * the theoretical arrival time, is kept in whole microseconds (as specified); an absent key means "now".
 */
final class GcraModel extends LimitModel {

    /** The theoretical arrival time in microseconds, {@code -1} when absent. */
    private long tatUs = -1;

    GcraModel(long limit, long windowMillis, long burst) {
        super(limit, windowMillis, burst);
    }

    private Exact interval() {
        return Exact.ratio(windowUs, limit);
    }

    @Override
    public Check check(long nowUs, long cost) {
        Exact now = Exact.of(nowUs);
        Exact tat = present() ? Exact.of(Math.max(tatUs, nowUs)) : now;
        Exact tolerance = interval().times(burst);
        Exact newTat = tat.plus(interval().times(cost));
        Exact allowAt = newTat.minus(tolerance);
        if (now.lessThan(allowAt)) {
            long retry = cost <= burst ? Math.max(1, ceilMillis(allowAt.minus(now))) : -1;
            long remaining = Math.max(0, now.minus(tat.minus(tolerance)).dividedBy(interval()).floor());
            return Check.refused(remaining, ceilMillis(tat.minus(now)), retry);
        }
        long reset = Math.max(1, ceilMillis(newTat.minus(now)));
        return new Check(new Reply(true, now.minus(allowAt).dividedBy(interval()).floor(), reset, 0), () -> {
            tatUs = newTat.round();
            expiresIn(nowUs, reset);
        });
    }

    @Override
    public void refund(long nowUs, long cost) {
        if (!present()) {
            untouched();
            return;
        }
        Exact newTat = Exact.of(tatUs).minus(interval().times(cost));
        if (newTat.compareTo(Exact.of(nowUs)) <= 0) {
            clear();
            untouched();
            return;
        }
        tatUs = newTat.round();
        expiresIn(nowUs, Math.max(1, ceilMillis(newTat.minus(nowUs))));
    }

    @Override
    public boolean present() {
        return tatUs >= 0;
    }

    @Override
    protected void clear() {
        tatUs = -1;
    }
}
