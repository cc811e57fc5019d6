package io.quarkiverse.ratelimit.runtime.limit;

import java.util.Objects;

/**
 * The one rule for methods that declare the same limit name: they share its counter, so they must count alike: the
 * same limit, window (or calendar period, time zone and anchor day), algorithm, burst, scope, policy and adaptiveness,
 * and the same key layout (both or neither per endpoint, as many parameters per parameter). Each may have its own cost,
 * failure mode, refunds and wait. Checked at build time on annotations and at start-up on what policies make of them.
 */
public final class SharedLimitNames {

    public static final String RULE = "methods sharing a limit name share its counter and must count alike:"
            + " the same limit, window or calendar period, algorithm, burst, scope, policy, key layout and adaptiveness";

    private SharedLimitNames() {
    }

    /** Whether two limits of one name count alike: two methods may share a name only if this holds ({@link #RULE}). */
    public static boolean countAlike(LimitDefinition one, LimitDefinition other) {
        return one.getLimit() == other.getLimit() && one.getWindowMillis() == other.getWindowMillis()
                && one.getAlgorithm() == other.getAlgorithm() && one.getBurst() == other.getBurst()
                && one.getCalendarPeriod() == other.getCalendarPeriod()
                && Objects.equals(one.getTimeZone(), other.getTimeZone()) && one.getAnchorDay() == other.getAnchorDay()
                && one.getScope() == other.getScope() && Objects.equals(one.getPolicy(), other.getPolicy())
                && one.isAdaptive() == other.isAdaptive()
                && (one.getEndpoint() == null) == (other.getEndpoint() == null)
                && one.getKeyParameters().size() == other.getKeyParameters().size();
    }
}
