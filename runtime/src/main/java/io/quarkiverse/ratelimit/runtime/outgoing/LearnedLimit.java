package io.quarkiverse.ratelimit.runtime.outgoing;

/**
 * What the fleet learned of one adaptive limit key, as {@code lua/adapt.lua} writes it
 * ({@code "<base> <since> <hold> <ceiling>"}): a 429 of the upstream came when the learned limit was {@code ceiling};
 * it was lowered to {@code base} at {@code sinceMillis} (the Redis clock) and holds there for {@code holdMillis}; then
 * it grows after every increase interval by one step up to the ceiling, and beyond it by steps that double, up to the
 * configured limit. The same formula as the script's {@code learned_at}: growing writes nothing anywhere.
 */
record LearnedLimit(double base, long sinceMillis, long holdMillis, double ceiling) {

    /** Beyond the ceiling, growth stops being computed after this many steps: by then every limit has grown back. */
    static final int LAST_STEP = 48;

    /** The field as the script wrote it; {@code null} for anything else. */
    static LearnedLimit parse(String field) {
        String[] parts = field == null ? new String[0] : field.trim().split(" ");
        if (parts.length != 4) {
            return null;
        }
        try {
            return new LearnedLimit(Double.parseDouble(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]),
                    Double.parseDouble(parts[3]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The learned limit at {@code nowMillis}, in whole units (at least 1, at most {@code limit}).
     *
     * @param limit the configured limit
     * @param step the step, in units
     */
    long limitAt(long nowMillis, long limit, long intervalMillis, double step) {
        long growingMillis = nowMillis - sinceMillis - holdMillis;
        double learned;
        if (growingMillis < 0) {
            learned = base;
        } else {
            long steps = growingMillis / intervalMillis + 1;
            long below = (long) Math.max(0, Math.floor((ceiling - base) / step));
            if (steps <= below) {
                learned = base + steps * step;
            } else if (steps - below > LAST_STEP) {
                learned = limit;
            } else {
                learned = base + below * step + step * (Math.pow(2, steps - below) - 1);
            }
        }
        return Math.max(1, Math.min(limit, (long) Math.floor(learned)));
    }

    /**
     * Whether it can no longer lower any limit (the script deletes such a field at its next call).
     *
     * @param stepsToGrowBack the intervals after which any learned limit has grown back ({@code lua/adapt.lua})
     */
    boolean expired(long nowMillis, long intervalMillis, long stepsToGrowBack) {
        return nowMillis - sinceMillis > holdMillis + stepsToGrowBack * intervalMillis;
    }
}
