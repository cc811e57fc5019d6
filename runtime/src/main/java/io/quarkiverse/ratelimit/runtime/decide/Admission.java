package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.smallrye.mutiny.Uni;

/**
 * An admitted call, which can give back what it consumed: for limits whose {@code refundOn} matches the exception the
 * method threw, or that refund on a 5xx response, and all of it when the call waits for a later slot and is given up. Each
 * limit is refunded at most once. A refund that fails (Redis
 * unavailable) is logged and dropped: the call simply counts.
 */
public final class Admission implements GuardedCall.Guard {

    private static final Logger LOG = Logger.getLogger(Admission.class);

    /** A call that has nothing to give back: no refund configured, or decided without Redis. */
    static final Admission NONE = new Admission(null, List.of(), List.of(), false);

    private final DecisionGuard guard;
    private final List<String> keys;
    private final List<LimitDefinition> limits;
    private final boolean outgoing;
    private final Set<String> refunded = ConcurrentHashMap.newKeySet();

    /** @param outgoing whether the call goes to another service (a REST Client's), whose 429 pauses the limits */
    Admission(DecisionGuard guard, List<String> keys, List<LimitDefinition> limits, boolean outgoing) {
        this.guard = guard;
        this.keys = keys;
        this.limits = limits;
        this.outgoing = outgoing;
    }

    /**
     * Refunds the limits whose {@code refundOn} matches {@code failure}, and pauses them when the call went to another
     * service that answered it 429 or 503 with a retry time; completes when Redis has done it.
     */
    @Override
    public Uni<Void> failed(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        Uni<Void> refund = refund(limit -> limit.refundsOn(cause));
        return outgoing ? refund.chain(() -> pauseFor(cause)) : refund;
    }

    /** The call counts; one that went to another service is still told how it was answered (a returned 429). */
    @Override
    public Uni<Void> ended(Object result) {
        return outgoing ? pauseFor(result) : Uni.createFrom().voidItem();
    }

    /** Pauses the limits fleet-wide until the retry time the upstream named, if it named one. */
    private Uni<Void> pauseFor(Object outcome) {
        Duration retry = UpstreamRetryTimes.of(outcome, Instant.now());
        if (retry == null) {
            return Uni.createFrom().voidItem();
        }
        return guard.pause(keys, limits, retry).onFailure().recoverWithItem(failure -> {
            LOG.debugf(failure, "Could not pause %s for %s", limits, retry);
            return null;
        });
    }

    /** {@link #NONE}, the admission of most calls, has nothing to give back, whatever the call's end. */
    @Override
    public boolean holdsNothing() {
        return this == NONE;
    }

    /**
     * Gives back everything the call consumed: a call admitted for a later slot that is given up before it comes (its
     * caller cancelled, its client left), so that the calls queued behind it move up.
     */
    public Uni<Void> giveBack() {
        return refund(limit -> true);
    }

    /** Refunds the limits that refund on a 5xx response. */
    public Uni<Void> refundServerError() {
        return refund(LimitDefinition::isRefundOnServerError);
    }

    boolean refundsOnServerError() {
        return limits.stream().anyMatch(LimitDefinition::isRefundOnServerError);
    }

    private Uni<Void> refund(Predicate<LimitDefinition> applies) {
        List<LimitDefinition> toRefund = new ArrayList<>();
        List<String> refundKeys = new ArrayList<>();
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            if (applies.test(limit) && refunded.add(limit.getName())) {
                toRefund.add(limit);
                refundKeys.add(keys.get(i));
            }
        }
        if (toRefund.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return guard.refund(refundKeys, toRefund)
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf(failure, "Could not refund %s; the call counts", toRefund);
                    return null;
                });
    }
}
