package io.quarkiverse.ratelimit.runtime.admitted;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.outgoing.UpstreamAnswers;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
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
    public static final Admission NONE = new Admission(null, List.of(), List.of(), null, null, false, 0);

    private final DecisionGuard guard;
    private final List<String> keys;
    private final List<LimitDefinition> limits;
    /** {@code null} when the call does not go to another service. */
    private final UpstreamAnswers upstream;
    /** {@code null} when no limit reads its cost from the call's result. */
    private final CallCosts costs;
    /**
     * For a stream ({@code Multi}) whose limits read their cost from its items: per limit, the sum of its items' costs
     * so far; {@code null} otherwise.
     */
    private final AtomicLongArray streamedCosts;
    private final Set<String> refunded = ConcurrentHashMap.newKeySet();
    /**
     * When Redis decided a call to another service (wall clock, ms): the rate an adaptive limit had then is the one it
     * went at; 0 for other calls, which need no clock read.
     */
    private final long decidedAtMillis;
    /** Told each limit's state after the call settled at its real cost (the response's headers); may be null. */
    private volatile Consumer<Map<String, RateLimitDecision>> settledListener;

    /**
     * @param limits the call's limits as configured (an adaptive limit's learned value is what it grows back from)
     * @param upstream what the answer of the service the call goes to (a REST Client's) does to its limits;
     *        {@code null} for a call that does not go to another service
     * @param costs the limits' {@code CostOf} beans; {@code null} when no limit reads its cost from the result
     * @param stream whether the call's result is a stream ({@code Multi}): its cost is the sum of its items' costs
     * @param decidedAtMillis when Redis decided a call to another service (wall clock, ms), 0 for other calls
     */
    Admission(DecisionGuard guard, List<String> keys, List<LimitDefinition> limits, UpstreamAnswers upstream,
            CallCosts costs, boolean stream, long decidedAtMillis) {
        this.guard = guard;
        this.keys = keys;
        this.limits = limits;
        this.upstream = upstream;
        this.decidedAtMillis = decidedAtMillis;
        this.costs = costs;
        this.streamedCosts = costs != null && stream ? new AtomicLongArray(limits.size()) : null;
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

    @Override
    public boolean countsItems() {
        return streamedCosts != null;
    }

    /** Adds the cost of an item of the call's stream to each limit that reads its cost from the result. */
    @Override
    public void streamed(Object item) {
        for (int i = 0; i < limits.size(); i++) {
            if (limits.get(i).getCostOf() != null) {
                long cost = costs.of(limits.get(i), item);
                streamedCosts.accumulateAndGet(i, cost, Admission::saturatedSum);
            }
        }
    }

    /**
     * The call counts; one that went to another service is still told how it was answered (a returned 429), and the
     * limits that read their cost from the result ({@code costOf}) are settled at it: for a stream, when it ends
     * (completed, or cancelled by its subscriber), at the sum of the costs of the items it emitted.
     */
    @Override
    public Uni<Void> ended(Object result) {
        Uni<Void> answered = upstream != null ? upstream.answered(result, keys, limits, decidedAtMillis)
                : Uni.createFrom().voidItem();
        if (costs == null) {
            return answered;
        }
        return answered.chain(() -> settle(limit -> realCost(limit, result))
                .invoke(after -> {
                    Consumer<Map<String, RateLimitDecision>> listener = settledListener;
                    if (listener != null) {
                        listener.accept(after);
                    }
                })
                .replaceWithVoid().onFailure().recoverWithItem(failure -> {
                    LOG.debugf(failure, "Could not settle %s; the call counts at its estimate", limits);
                    return null;
                }));
    }

    /** Whether the call settles at a real cost read from its result when it ends ({@code costOf}). */
    public boolean settlesFromResult() {
        return costs != null;
    }

    /**
     * Tells {@code listener}, by limit name, the state of each limit after the call settled at its real cost; before
     * the caller sees the result, so a response can show what is left after the settlement.
     */
    public void onSettled(Consumer<Map<String, RateLimitDecision>> listener) {
        this.settledListener = listener;
    }

    /**
     * What {@code limit}'s part of the call really cost; {@code null} when it does not read it from the result, or when
     * its {@code CostOf} answered more than {@link LimitRules#MAX_COST} (a field misread, most likely): that limit is then
     * not settled and counts the call at its estimate, and a warning names the bean and what it answered.
     */
    private Long realCost(LimitDefinition limit, Object result) {
        if (limit.getCostOf() == null) {
            return null;
        }
        long cost;
        if (streamedCosts == null) {
            cost = costs.of(limit, result);
        } else {
            int at = 0;
            while (limits.get(at) != limit) {
                at++;
            }
            cost = streamedCosts.get(at);
        }
        String violation = LimitRules.settledCost(cost);
        if (violation != null) {
            LOG.warnf("%s answered %d for a call of '%s': %s; the call counts at its estimate, %d", limit.getCostOf(),
                    cost, limit.getName(), violation, limit.getCost());
            return null;
        }
        return cost;
    }

    /** A stream's costs so far plus an item's, {@link Long#MAX_VALUE} rather than wrapping around. */
    private static long saturatedSum(long sum, long cost) {
        long total = sum + cost;
        return total < sum ? Long.MAX_VALUE : total;
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
    public Uni<Map<String, RateLimitDecision>> settle(Function<LimitDefinition, Long> actualOf) {
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
