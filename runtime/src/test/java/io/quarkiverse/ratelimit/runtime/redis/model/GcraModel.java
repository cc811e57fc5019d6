package io.quarkiverse.ratelimit.runtime.redis.model;

/**
 * Calls spaced by the emission interval {@code window / limit}, with a tolerance of {@code burst} intervals. The state,
 * the theoretical arrival time, is exact (an interval is rarely a whole number of microseconds); an absent key means
 * "now".
 */
final class GcraModel extends LimitModel {

    /** The theoretical arrival time in microseconds, {@code null} when absent. */
    private Exact tat;

    GcraModel(long limit, long windowMillis, long burst) {
        super(limit, windowMillis, burst);
    }

    private Exact interval() {
        return Exact.ratio(windowUs, limit);
    }

    @Override
    public Check check(long nowUs, long cost) {
        Exact now = Exact.of(nowUs);
        Exact tat = present() ? Exact.max(this.tat, now) : now;
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
            this.tat = newTat;
            expiresIn(nowUs, reset);
        });
    }

    @Override
    public void refund(long nowUs, long cost) {
        if (!present()) {
            untouched();
            return;
        }
        Exact newTat = tat.minus(interval().times(cost));
        if (newTat.compareTo(Exact.of(nowUs)) <= 0) {
            clear();
            untouched();
            return;
        }
        tat = newTat;
        expiresIn(nowUs, Math.max(1, ceilMillis(newTat.minus(nowUs))));
    }

    @Override
    public void charge(long nowUs, long cost) {
        Exact now = Exact.of(nowUs);
        tat = (present() ? Exact.max(tat, now) : now).plus(interval().times(cost));
        expiresIn(nowUs, Math.max(1, ceilMillis(tat.minus(now))));
    }

    @Override
    public boolean present() {
        return tat != null;
    }

    @Override
    protected void clear() {
        tat = null;
    }
}
