package io.quarkiverse.ratelimit.runtime.lease;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * A call of a leasing limit that Redis refused while other instances' slices may hold the units it costs: Redis recalls
 * them (one recall per key at a time), and the call waits for them to come back and is decided again, for at most
 * {@link #waitMillis}, so a refusal near the limit comes when the units are used, not while they travel back.
 */
final class RecallWaits {

    /** How long a refused call waits for a give-back before it asks Redis again what the slices hold. */
    static final long RECHECK_MILLIS = 25;

    /** Admits a call from its key's slice on this instance, or answers {@code null} ({@link HotKeyDecisions}). */
    interface SliceAdmissions {
        List<RateLimitDecision> admit(LeasedKey leased, LimitDefinition limit, long nowNanos);
    }

    private final RedisDecisions redis;
    private final FleetSize fleet;
    /** The leases' time: the scripts' ({@code RateLimitTestClock} moves it with Redis's windows). */
    private final ScriptClock clock;
    private final InstanceClock timers;
    private final LeasedKeys keys;
    private final long leaseMillis;
    /** The longest a refused call waits for recalled slices: a lease, and well within the decision timeout. */
    private final long waitMillis;
    private final SliceAdmissions slices;

    RecallWaits(RedisDecisions redis, FleetSize fleet, ScriptClock clock, InstanceClock timers, LeasedKeys keys,
            long leaseMillis, long waitMillis, SliceAdmissions slices) {
        this.redis = redis;
        this.fleet = fleet;
        this.clock = clock;
        this.timers = timers;
        this.keys = keys;
        this.leaseMillis = leaseMillis;
        this.waitMillis = waitMillis;
        this.slices = slices;
    }

    /**
     * A call Redis refused with no recall known to be under way ({@link #recalled}), waiting from now.
     *
     * @param seenChanges the key's changes heard before the refused decision was sent ({@code -1}: not known)
     */
    Future<List<RateLimitDecision>> afterRefusal(long seenChanges, List<String> callKeys, List<LimitDefinition> limits,
            ShadowMask shadow, List<RateLimitDecision> refused) {
        return recalled(seenChanges, waitsUntil(), callKeys, limits, shadow, refused);
    }

    /** A call Redis refused while a recall of its key is under way ({@link #afterRecall}), waiting from now. */
    Future<List<RateLimitDecision>> whileRecalled(LeasedKey leased, long seenChanges, List<String> callKeys,
            List<LimitDefinition> limits, ShadowMask shadow, List<RateLimitDecision> refused) {
        return afterRecall(leased, seenChanges, waitsUntil(), callKeys, limits, shadow, refused);
    }

    /**
     * A call Redis refused with no recall known to be under way (on an instance that leases nothing of its key, or
     * while slices were far from the limit): the other instances' slices may hold the units it was refused for. Redis
     * recalls them, and the call waits for them ({@link #afterRecall}), the key's changes counted from before the
     * call's decision so that a give-back announced before the recall's reply is not missed. Such a refusal costs one
     * more round trip, shared by the calls Redis refuses meanwhile (a flood of refused calls is answered by the refusal
     * cache).
     *
     * @param seenChanges the key's changes heard before the refused decision was sent ({@code -1}: not known)
     */
    private Future<List<RateLimitDecision>> recalled(long seenChanges, long untilNanos, List<String> callKeys,
            List<LimitDefinition> limits, ShadowMask shadow, List<RateLimitDecision> refused) {
        if (clock.nanoTime() - untilNanos >= 0) {
            return Future.succeededFuture(refused);
        }
        LimitDefinition limit = limits.get(0);
        LeasedKey watched = keys.watched(callKeys.get(0), clock.nanoTime());
        long seen = seenChanges < 0 ? watched.changes.get() : seenChanges;
        return recall(callKeys.get(0), watched, limit).transform(elsewhere -> elsewhere.succeeded()
                && comesBack(refused.get(0), elsewhere.result(), limit)
                        ? afterRecall(watched, seen, untilNanos, callKeys, limits, shadow, refused)
                        : Future.succeededFuture(refused));
    }

    /** The key's recall under way, or a new one: one at a time per key, however many calls Redis refuses meanwhile. */
    private Future<Long> recall(String key, LeasedKey watched, LimitDefinition limit) {
        Promise<Long> elsewhere = Promise.promise();
        Future<Long> mine = elsewhere.future();
        Future<Long> underWay = watched.recalling.compareAndExchange(null, mine);
        if (underWay != null) {
            return underWay;
        }
        redis.recallLeases(key, limit, fleet.id(), leaseMillis).onComplete(done -> {
            if (done.succeeded() && done.result() > 0) {
                // the next refusals wait for what comes back, with no recall of their own
                watched.recalledUntilNanos = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis);
            }
            watched.recalling.compareAndSet(mine, null);
            elsewhere.handle(done);
        });
        return mine;
    }

    /**
     * Whether a call of {@code limit} fits once what other instances' slices hold ({@code elsewhere}) is back, beside
     * what Redis had left after {@code decided}.
     */
    static boolean comesBack(RateLimitDecision decided, long elsewhere, LimitDefinition limit) {
        return elsewhere > 0 && Math.max(0, decided.remaining()) + elsewhere >= limit.getCost();
    }

    /**
     * A call Redis refused while other instances' slices hold units it recalled: decided in Redis again once the key's
     * count changes (a slice given back). Refused again while the slices still hold what it costs (another instance
     * leased some of what came back), it waits for them again, until {@code untilNanos}: so a refusal near the limit
     * comes when the units are used, not while they travel back, at most {@link #waitMillis} later.
     */
    private Future<List<RateLimitDecision>> afterRecall(LeasedKey leased, long seenChanges, long untilNanos,
            List<String> callKeys, List<LimitDefinition> limits, ShadowMask shadow, List<RateLimitDecision> refused) {
        return givenBack(leased, seenChanges).compose(done -> {
            long seen = leased.changes.get();
            return redis.decide(callKeys, limits, shadow).compose(decided -> {
                if (decided.get(0).allowed()) {
                    return Future.succeededFuture(decided);
                }
                List<RateLimitDecision> local = slices.admit(leased, limits.get(0), clock.nanoTime());
                return local != null ? Future.succeededFuture(local)
                        : recalled(seen, untilNanos, callKeys, limits, shadow, decided);
            });
        });
    }

    /** Until when a call refused now may wait for slices to come back: {@link #waitMillis} (a lease at most). */
    private long waitsUntil() {
        return clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    }

    /** Completes once the key's count changed since {@code seenChanges}, or soon after (a recheck): one wait per key. */
    private Future<Void> givenBack(LeasedKey leased, long seenChanges) {
        Promise<Void> mine = Promise.promise();
        Future<Void> back;
        if (leased.givenBack.compareAndSet(null, mine)) {
            // a slice spent to the last unit goes back without a change to announce, and a change this instance does
            // not hear (its subscription unconfirmed) is never heard: ask again soon rather than wait
            timers.setTimer(Math.min(waitMillis, RECHECK_MILLIS), () -> {
                leased.givenBack.compareAndSet(mine, null);
                mine.tryComplete();
            });
            back = mine.future();
        } else {
            Promise<Void> waiting = leased.givenBack.get();
            back = waiting != null ? waiting.future() : Future.succeededFuture(); // null: given back just now
        }
        // looked at once the wait is in place: a change counted before completes nothing, one counted after completes it
        return leased.changes.get() != seenChanges ? Future.succeededFuture() : back;
    }
}
