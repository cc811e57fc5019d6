package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.runtime.admitted.Admission;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.TimedDecisions;

/**
 * What the limits of one call said: admitted, with what the call can give back, or refused; and the decisions the
 * client is shown (the rate-limit headers). The caller answers it as its channel needs: the HTTP request filter with a
 * response, the interceptor with the method's invocation or an exception.
 */
public final class CallDecision {

    /** The slot of a call that goes at once, without waiting ({@link #slotNanos()}). */
    static final long GOES_AT_ONCE = Long.MIN_VALUE;

    /** A call no limit looked at (an exempt tenant, every limit switched off): admitted, nothing to show. */
    static final CallDecision UNLIMITED = new CallDecision(Admission.NONE, List.of(), List.of(), null, 0, 0);

    private final Admission admission;
    private final List<RateLimitDecision> shown;
    private final List<RateLimitDecision> enforced;
    /** Every limit's decision in the call's order, as code that asked for them sees it; {@code null}: unlimited. */
    private final List<RateLimitDecision> perLimit;
    private final long waitMillis;
    /** When the call's slot comes, in the {@link InstanceClock}'s time; meaningless when it does not wait. */
    private final long slotNanos;

    private CallDecision(Admission admission, List<RateLimitDecision> shown, List<RateLimitDecision> enforced,
            List<RateLimitDecision> perLimit, long waitMillis, long slotNanos) {
        this.admission = admission;
        this.shown = shown;
        this.enforced = enforced;
        this.perLimit = perLimit;
        this.waitMillis = waitMillis;
        this.slotNanos = slotNanos;
    }

    /**
     * A call every limit of which was decided and enforced.
     *
     * @param decided the decisions as taken: a wait counts from when Redis took them ({@link TimedDecisions})
     * @param clock the instance's clock, read only for a call that waits (when its decision does not say when)
     */
    static CallDecision admitted(Admission admission, List<RateLimitDecision> decided, InstanceClock clock) {
        long waitMillis = waitMillis(decided);
        return new CallDecision(admission, decided, decided, decided, waitMillis,
                slotNanos(decided, waitMillis, clock));
    }

    /** A call some limits of which were off or in shadow mode ({@link #admitted(Admission, List, InstanceClock)}). */
    static CallDecision admitted(Admission admission, List<RateLimitDecision> decided, List<RateLimitDecision> shown,
            List<RateLimitDecision> perLimit, InstanceClock clock) {
        long waitMillis = waitMillis(decided);
        return new CallDecision(admission, shown, shown, perLimit, waitMillis, slotNanos(decided, waitMillis, clock));
    }

    /** A call a limit refused, every limit decided and enforced. */
    static CallDecision refused(List<RateLimitDecision> decisions) {
        return new CallDecision(null, decisions, decisions, decisions, 0, 0);
    }

    /** When the slot of a call that waits {@code waitMillis} comes: counted from Redis's decision when it says when. */
    private static long slotNanos(List<RateLimitDecision> decided, long waitMillis, InstanceClock clock) {
        return waitMillis == 0 ? 0
                : TimedDecisions.decidedAtNanos(decided, clock.nanoTime()) + waitMillis * 1_000_000;
    }

    /**
     * @param shown the decisions the client sees
     * @param enforced the decisions of the limits that can refuse (without those in shadow mode), at least one refusing
     * @param perLimit every limit's decision ({@link #perLimit(List)})
     */
    static CallDecision refused(List<RateLimitDecision> shown, List<RateLimitDecision> enforced,
            List<RateLimitDecision> perLimit) {
        return new CallDecision(null, shown, enforced, perLimit, 0, 0);
    }

    /**
     * This admitted call refused after all, with {@code retryAfter}: its limits were paused (an upstream's retry time)
     * while it waited for its slot. What it consumed is not given back: the pause is later than its slot anyway.
     */
    CallDecision revoked(Duration retryAfter) {
        List<RateLimitDecision> refused = revoked(shown, retryAfter);
        return perLimit == shown ? refused(refused)
                : refused(refused, refused, perLimit == null ? null : revoked(perLimit, retryAfter));
    }

    /**
     * Every limit's decision, in the order of {@code limits}, as code that asked for them sees it (the
     * {@code RateLimiter}): a limit switched off, or every limit of an exempt tenant, admits with its whole limit left;
     * a limit in shadow mode that refused admits with nothing left, as the call proceeds.
     */
    public List<RateLimitDecision> perLimit(List<LimitDefinition> limits) {
        if (perLimit != null) {
            return perLimit;
        }
        List<RateLimitDecision> unlimited = new ArrayList<>(limits.size());
        for (LimitDefinition limit : limits) {
            unlimited.add(unlimited(limit));
        }
        return unlimited;
    }

    /** What a limit that is not applied to a call says of it: admitted, the whole limit left. */
    static RateLimitDecision unlimited(LimitDefinition limit) {
        return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), true, limit.getLimit(),
                Duration.ZERO, Duration.ZERO, false);
    }

    /** A shadow limit's refusal as the call sees it: admitted, nothing left. */
    static RateLimitDecision shadowed(RateLimitDecision refusal) {
        return new RateLimitDecision(refusal.limitName(), refusal.limit(), refusal.window(), true, 0,
                refusal.resetAfter(), Duration.ZERO, refusal.degraded());
    }

    /** Admitting decisions turned into refusals with {@code retryAfter} (their limits were paused meanwhile). */
    static List<RateLimitDecision> revoked(List<RateLimitDecision> decisions, Duration retryAfter) {
        List<RateLimitDecision> refused = new ArrayList<>(decisions.size());
        for (RateLimitDecision decision : decisions) {
            refused.add(new RateLimitDecision(decision.limitName(), decision.limit(), decision.window(), false, 0,
                    decision.resetAfter(), retryAfter, false));
        }
        return refused;
    }

    /**
     * How long the call of {@code decisions} waits for the slot Redis reserved for it (every limit that records it says
     * the same wait); 0 when it goes at once or was refused.
     */
    static long waitMillis(List<RateLimitDecision> decisions) {
        long wait = 0;
        for (int i = 0; i < decisions.size(); i++) {
            wait = Math.max(wait, decisions.get(i).waitTime().toMillis());
        }
        return wait;
    }

    /** How long an admitted call waits for the later slot Redis reserved for it; 0 when it goes at once. */
    public long waitMillis() {
        return waitMillis;
    }

    /** When the slot of a call that waits comes, in the {@link InstanceClock}'s time; {@link #GOES_AT_ONCE}. */
    long slotNanos() {
        return waitMillis == 0 ? GOES_AT_ONCE : slotNanos;
    }

    public boolean admitted() {
        return admission != null;
    }

    /** What an admitted call can give back; {@code null} when the call was refused. */
    public Admission admission() {
        return admission;
    }

    /** The decisions the client is shown in the rate-limit headers; empty when there are none to show. */
    public List<RateLimitDecision> shown() {
        return shown;
    }

    /** The refusal as the exception a caller of the method sees. */
    public RateLimitExceededException refusal() {
        return new RateLimitExceededException(enforced);
    }
}
