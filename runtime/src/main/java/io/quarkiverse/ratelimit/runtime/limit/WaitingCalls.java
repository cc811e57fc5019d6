package io.quarkiverse.ratelimit.runtime.limit;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.LimitRules;

/**
 * Which calls may wait for a later slot ({@code maxWait}), and for how long: the rule for the limits of one call, which
 * the build checks on annotations, start-up on what policies make of them, and the programmatic API on its limits.
 */
public final class WaitingCalls {

    private WaitingCalls() {
    }

    /**
     * How long a call of {@code limits} may wait for its slot: the longest {@code maxWait} of its limits (a wait beyond
     * the others' is still refused, since one limit's retry time alone exceeds it); 0 when none may wait.
     */
    public static long maxWaitMillis(List<LimitDefinition> limits) {
        long maxWait = 0;
        for (int i = 0; i < limits.size(); i++) {
            maxWait = Math.max(maxWait, limits.get(i).getMaxWaitMillis());
        }
        return maxWait;
    }

    /**
     * How late a waiting call of {@code limits} may still go at its slot, in nanoseconds: the smallest tolerance among
     * its limits that may wait, each its own or {@code defaultNanos} ({@code quarkus.rate-limit.late-slot-tolerance}).
     */
    public static long lateSlotToleranceNanos(List<LimitDefinition> limits, long defaultNanos) {
        long tolerance = Long.MAX_VALUE;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            if (limit.getMaxWaitMillis() > 0) {
                long own = limit.getLateSlotToleranceMillis();
                tolerance = Math.min(tolerance, own < 0 ? defaultNanos : own * 1_000_000);
            }
        }
        return tolerance == Long.MAX_VALUE ? defaultNanos : tolerance;
    }

    /** The limits with no {@code maxWait} above {@code millis}: a call decided again with what is left of its wait. */
    public static List<LimitDefinition> waitingAtMost(List<LimitDefinition> limits, long millis) {
        List<LimitDefinition> shorter = new ArrayList<>(limits.size());
        for (LimitDefinition limit : limits) {
            shorter.add(limit.getMaxWaitMillis() > millis ? limit.toBuilder().maxWait(millis).build() : limit);
        }
        return shorter;
    }

    /**
     * Why the limits of one call cannot wait together, {@code null} when they can: a call that waits is recorded in
     * every one of its limits at the time it runs, which only the token bucket and GCRA can do.
     */
    public static String violation(List<LimitDefinition> limits) {
        if (maxWaitMillis(limits) == 0) {
            return null;
        }
        for (LimitDefinition limit : limits) {
            if (limit.getMaxWaitMillis() == 0 && LimitRules.maxWait(1, limit.getAlgorithm()) != null) {
                return "its calls may wait (maxWait), so every limit of it must be a TOKEN_BUCKET or GCRA, which hold a"
                        + " waiting call's later slot; limit '" + limit.getName() + "' is " + limit.getAlgorithm();
            }
        }
        return null;
    }
}
