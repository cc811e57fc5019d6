package io.quarkiverse.ratelimit.runtime.redis.model;

/** A bucket of {@code burst} tokens refilled continuously at {@code limit} per window; an absent key is full. */
final class TokenBucketModel extends LimitModel {

    private Exact tokens;
    private long atUs;

    TokenBucketModel(long limit, long windowMillis, long burst) {
        super(limit, windowMillis, burst);
    }

    private Exact tokensAt(long nowUs) {
        if (tokens == null) {
            return Exact.of(burst);
        }
        Exact refilled = Exact.ratio(limit, windowUs).times(Math.max(0, nowUs - atUs));
        return Exact.min(Exact.of(burst), tokens.plus(refilled));
    }

    /** Microseconds until {@code missing} tokens have been refilled. */
    private Exact refillUs(Exact missing) {
        return missing.times(windowUs).dividedBy(limit);
    }

    @Override
    public Check check(long nowUs, long cost) {
        Exact available = tokensAt(nowUs);
        if (available.lessThan(Exact.of(cost))) {
            long retry = cost <= burst ? Math.max(1, ceilMillis(refillUs(Exact.of(cost).minus(available)))) : -1;
            // a bucket in debt (a settled overrun) has none left, not fewer than none
            return Check.refused(Math.max(0, available.floor()), ceilMillis(refillUs(Exact.of(burst).minus(available))),
                    retry);
        }
        Exact left = available.minus(cost);
        long reset = Math.max(1, ceilMillis(refillUs(Exact.of(burst).minus(left))));
        return new Check(new Reply(true, left.floor(), reset, 0), () -> {
            tokens = left;
            atUs = nowUs;
            expiresIn(nowUs, reset);
        });
    }

    @Override
    public void refund(long nowUs, long cost) {
        if (tokens == null) {
            untouched();
            return;
        }
        Exact refunded = Exact.min(Exact.of(burst), tokensAt(nowUs).plus(cost));
        if (refunded.compareTo(Exact.of(burst)) >= 0) {
            clear();
            untouched();
            return;
        }
        tokens = refunded;
        atUs = nowUs;
        expiresIn(nowUs, Math.max(1, ceilMillis(refillUs(Exact.of(burst).minus(refunded)))));
    }

    @Override
    public void charge(long nowUs, long cost) {
        tokens = tokensAt(nowUs).minus(cost);
        atUs = nowUs;
        expiresIn(nowUs, Math.max(1, ceilMillis(refillUs(Exact.of(burst).minus(tokens)))));
    }

    @Override
    public boolean present() {
        return tokens != null;
    }

    @Override
    protected void clear() {
        tokens = null;
    }
}
