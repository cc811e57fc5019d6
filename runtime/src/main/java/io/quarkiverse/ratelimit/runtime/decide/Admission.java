package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.RateLimitDecision;
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
    static final Admission NONE = new Admission(null, List.of(), List.of(), null, null);

    private final DecisionGuard guard;
    private final List<String> keys;
    private final List<LimitDefinition> limits;
    /** {@code null} when the call does not go to another service. */
    private final UpstreamAnswers upstream;
    /** {@code null} when no limit reads its cost from the call's result. */
    private final CallCosts costs;
    private final Set<String> refunded = ConcurrentHashMap.newKeySet();
    /** When Redis decided the call (wall clock, ms): the rate an adaptive limit had then is the one it went at. */
    private final long decidedAtMillis = System.currentTimeMillis();

    /**
     * @param limits the call's limits as configured (an adaptive limit's learned value is what it grows back from)
     * @param upstream what the answer of the service the call goes to (a REST Client's) does to its limits;
     *        {@code null} for a call that does not go to another service
     * @param costs the limits' {@code CostOf} beans; {@code null} when no limit reads its cost from the result
     */
    Admission(DecisionGuard guard, List<String> keys, List<LimitDefinition> limits, UpstreamAnswers upstream,
            CallCosts costs) {
        this.guard = guard;
        this.keys = keys;
        this.limits = limits;
        this.upstream = upstream;
        this.costs = costs;
    }

    /**
     * Refunds the limits whose {@code refundOn} matches {@code failure}, and tells them how another service the call
     * went to answered ({@link UpstreamAnswers}); completes when Redis has done it.
     */
    @Override
    public Uni<Void> failed(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        Uni<Void> refund = refund(limit -> limit.refundsOn(cause));
        return upstream != null ? refund.chain(() -> upstream.answered(cause, keys, limits, decidedAtMillis)) : refund;
    }

    /**
     * The call counts; one that went to another service is still told how it was answered (a returned 429), and the
     * limits that read their cost from the result ({@code costOf}) are settled at it.
     */
    @Override
    public Uni<Void> ended(Object result) {
        Uni<Void> answered = upstream != null ? upstream.answered(result, keys, limits, decidedAtMillis)
                : Uni.createFrom().voidItem();
        if (costs == null) {
            return answered;
        }
        return answered.chain(() -> settle(limit -> limit.getCostOf() == null ? null : costs.of(limit, result))
                .replaceWithVoid().onFailure().recoverWithItem(failure -> {
                    LOG.debugf(failure, "Could not settle %s; the call counts at its estimate", limits);
                    return null;
                }));
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

    /**
     * Settles a reservation: each limit is charged what {@code actualOf} says instead of what it reserved (its cost),
     * or stays as it is where that is {@code null}; emits, by limit name, the state after it of each limit the call
     * recorded (none for a call decided without Redis: nothing to settle).
     */
    Uni<Map<String, RateLimitDecision>> settle(Function<LimitDefinition, Long> actualOf) {
        if (limits.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<LimitDefinition> differences = new ArrayList<>(limits.size());
        for (LimitDefinition limit : limits) {
            Long actual = actualOf.apply(limit);
            differences.add(limit.withCost(actual == null ? 0 : actual - limit.getCost()));
            if (actual != null) {
                guard.settled(limit, actual);
            }
        }
        return guard.settle(keys, differences).map(after -> {
            Map<String, RateLimitDecision> byName = new HashMap<>();
            after.forEach(decision -> byName.put(decision.limitName(), decision));
            return byName;
        });
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
