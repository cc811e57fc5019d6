package io.quarkiverse.ratelimit;

import java.util.Objects;

/**
 * What a call takes of one limit when it reserves ({@link RateLimiter#reserve(java.util.List, String)}): an estimate,
 * settled to the real cost when the call ends ({@link Reservation#settle}), or a fixed number of units the settlement
 * leaves alone. An LLM call reserves its estimated tokens of a tokens-per-minute and a tokens-per-month limit, and one
 * request of a requests-per-minute limit:
 *
 * <pre>
 * limiter.reserve(List.of(Charge.estimated(TOKENS_PER_MINUTE, 100), Charge.estimated(TOKENS_PER_MONTH, 100),
 *         Charge.fixed(REQUESTS_PER_MINUTE, 1)), tenant)
 * </pre>
 */
public final class Charge {

    private final RateLimit limit;
    private final long units;
    private final boolean estimated;

    private Charge(RateLimit limit, long units, boolean estimated) {
        this.limit = Objects.requireNonNull(limit, "limit");
        this.units = units;
        this.estimated = estimated;
    }

    /** {@code units} of {@code limit} reserved now, settled to the call's real cost when it ends. */
    public static Charge estimated(RateLimit limit, long units) {
        return new Charge(limit, units, true);
    }

    /** {@code units} of {@code limit}, whatever the call's real cost turns out to be. */
    public static Charge fixed(RateLimit limit, long units) {
        return new Charge(limit, units, false);
    }

    public RateLimit limit() {
        return limit;
    }

    public long units() {
        return units;
    }

    /** Whether the settlement replaces these units by the real cost. */
    public boolean estimated() {
        return estimated;
    }

    @Override
    public String toString() {
        return (estimated ? "about " : "") + units + " of " + limit;
    }
}
