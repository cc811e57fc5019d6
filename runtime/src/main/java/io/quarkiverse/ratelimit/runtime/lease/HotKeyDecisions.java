package io.quarkiverse.ratelimit.runtime.lease;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * How a call of a limit that leases is decided ({@link LeasedCounts} says which do): from its key's slice when it holds
 * the call's cost; else with Redis, by taking the key's next lease in the call's own decision, by waiting for the lease
 * already on its way, or, for a key too slow to lease, in Redis alone. Whichever way, no refusal is given while this
 * instance holds in a slice what the call costs: the refusal Redis gave while a lease was on its way is checked against
 * the slice it brought.
 */
final class HotKeyDecisions {

    /** How long a refused call waits for a give-back before it asks Redis again what the slices hold. */
    static final long RECHECK_MILLIS = 25;

    private final RedisDecisions redis;
    private final FleetSize fleet;
    /** The leases' time: the scripts' ({@code RateLimitTestClock} moves it with Redis's windows). */
    private final ScriptClock clock;
    private final InstanceClock timers;
    private final InvalidationChannel invalidations;
    private final LeasedKeys keys;
    private final long leaseMillis;
    /** The longest a refused call waits for recalled slices: a lease, and well within the decision timeout. */
    private final long waitMillis;
    private final int minSlice;
    private final AtomicLong leaseIds = new AtomicLong();
    private final LongAdder leasedAdmissions = new LongAdder();
    private final LongAdder leasesTaken = new LongAdder();

    HotKeyDecisions(RedisDecisions redis, FleetSize fleet, ScriptClock clock, InstanceClock timers,
            InvalidationChannel invalidations, LeasedKeys keys, long leaseMillis, long waitMillis, int minSlice) {
        this.redis = redis;
        this.fleet = fleet;
        this.clock = clock;
        this.timers = timers;
        this.invalidations = invalidations;
        this.keys = keys;
        this.leaseMillis = leaseMillis;
        this.waitMillis = waitMillis;
        this.minSlice = minSlice;
    }

    /** The call admitted from its key's slice (counted as a call of it), or {@code null} when it must ask Redis. */
    List<RateLimitDecision> fromSlice(String key, LimitDefinition limit) {
        long now = clock.nanoTime();
        LeasedKey leased = keys.called(key, limit.getCost(), now);
        return leased == null ? null : fromSlice(leased, limit, now);
    }

    /** The call admitted from the key's slice, or {@code null} when the slice cannot admit it. */
    private List<RateLimitDecision> fromSlice(LeasedKey leased, LimitDefinition limit, long now) {
        Slice slice = leased.slice.get();
        if (slice == null || !slice.serves(limit, now) || !invalidations.live()) {
            return null;
        }
        long left = slice.take(limit.getCost());
        if (left < 0) {
            return null;
        }
        leasedAdmissions.increment();
        return List.of(slice.admitted(left, now));
    }

    /** The call decided with Redis: its slice could not admit it. */
    Future<List<RateLimitDecision>> withRedis(List<String> callKeys, List<LimitDefinition> limits, ShadowMask shadow) {
        LeasedKey leased = keys.get(callKeys.get(0));
        long now = clock.nanoTime();
        if (leased == null || !invalidations.live()) {
            return inRedis(callKeys, limits, shadow);
        }
        LimitDefinition limit = limits.get(0);
        // a slice pays for its lease by the round trips it saves: none holding fewer than min-slice calls
        long smallest = minSlice * limit.getCost();
        long demand = leased.demand.perLease(now);
        // a slice this call could not be admitted from (a cost beyond what it holds) goes back in the call's own
        // decision, which can then count its units: Redis alone would refuse what the slice holds here
        if (demand < smallest && leased.slice.get() == null) {
            return inRedis(callKeys, limits, shadow);
        }
        Promise<Void> taken = Promise.promise();
        if (!leased.taking.compareAndSet(null, taken.future())) {
            Future<Void> taking = leased.taking.get();
            if (taking == null) {
                return inRedis(callKeys, limits, shadow);
            }
            // the lease on its way takes back the slice this call could not be admitted from: after it, the call
            // is admitted from the new slice or decided in Redis, which then counts the old one's units
            return taking.transform(done -> {
                List<RateLimitDecision> local = fromSlice(leased, limit, clock.nanoTime());
                return local != null ? Future.succeededFuture(local) : inRedis(callKeys, limits, shadow);
            });
        }
        long seen = leased.changes.get();
        return takeLease(callKeys.get(0), leased, limit, demand < smallest ? 0 : demand, smallest, now)
                .onComplete(done -> {
                    leased.taking.set(null);
                    taken.complete();
                })
                .compose(decisions -> decisions.get(0).allowed() || leased.recalledUntilNanos - now <= 0
                        ? Future.succeededFuture(decisions)
                        : afterRecall(leased, seen, waitsUntil(), callKeys, limits, shadow, decisions));
    }

    /** Decides the call and leases the key's next slice, giving back in the same call what the last one left. */
    private Future<List<RateLimitDecision>> takeLease(String key, LeasedKey leased, LimitDefinition limit, long wanted,
            long smallest, long now) {
        Slice previous = leased.slice.getAndSet(null);
        long unused = previous == null ? 0 : previous.drain();
        String id = Long.toString(leaseIds.incrementAndGet(), 36);
        return redis.takeLease(key, limit, fleet.id(), previous == null ? "" : previous.id, unused, id, wanted,
                smallest, 2 * fleet.sharing(), leaseMillis)
                .compose(reply -> {
                    // near the limit Redis recalled what the other instances' slices hold: a call refused now may
                    // be admitted once it is back
                    leased.recalledUntilNanos = comesBack(reply.decision(), reply.heldElsewhere(), limit)
                            ? now + TimeUnit.MILLISECONDS.toNanos(leaseMillis)
                            : now;
                    List<RateLimitDecision> decided = List.of(reply.decision());
                    if (reply.slice() <= 0) {
                        return Future.succeededFuture(decided);
                    }
                    Slice slice = new Slice(id, limit, reply.slice(), now, reply.leaseMillis(),
                            reply.decision().resetAfter());
                    leasesTaken.increment();
                    if (slice.ended(clock.nanoTime())) {
                        // a reply slower than the lease (an overloaded instance): its units go back before the calls
                        // waiting for this lease are decided in Redis, rather than sit until the sweep
                        return keys.giveBack(key, slice).transform(givenBack -> Future.succeededFuture(decided));
                    }
                    leased.slice.set(slice);
                    keys.sweep();
                    return Future.succeededFuture(decided);
                });
    }

    /**
     * The call decided in Redis alone. A lease on its way meanwhile (this key may have turned hot since) may come back
     * with a slice holding the very units Redis refused the call for, its answer even overtaking the refusal's on
     * another connection: a refused call then waits for that lease and is admitted from its slice when it can be.
     * (A refusal counts nothing in Redis.)
     */
    private Future<List<RateLimitDecision>> inRedis(List<String> callKeys, List<LimitDefinition> limits,
            ShadowMask shadow) {
        LeasedKey before = keys.get(callKeys.get(0));
        long seen = before == null ? 0 : before.changes.get();
        return redis.decide(callKeys, limits, shadow).compose(decisions -> {
            if (decisions.get(0).allowed()) {
                return Future.succeededFuture(decisions);
            }
            LeasedKey leased = keys.get(callKeys.get(0));
            if (leased == null) {
                // not watched before: a change heard before it is, is not known (found by the recheck)
                return recalled(-1, waitsUntil(), callKeys, limits, shadow, decisions);
            }
            Future<Void> taking = leased.taking.get();
            Future<Void> after = taking == null ? Future.succeededFuture() : taking;
            return after.transform(done -> {
                List<RateLimitDecision> local = fromSlice(leased, limits.get(0), clock.nanoTime());
                if (local != null) {
                    return Future.succeededFuture(local);
                }
                // a key that turned hot meanwhile: a change before now is not known (found by the recheck)
                long seenBefore = leased == before ? seen : leased.changes.get();
                if (leased.recalledUntilNanos - clock.nanoTime() <= 0) {
                    return recalled(seenBefore, waitsUntil(), callKeys, limits, shadow, decisions);
                }
                return afterRecall(leased, seenBefore, waitsUntil(), callKeys, limits, shadow, decisions);
            });
        });
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
    private static boolean comesBack(RateLimitDecision decided, long elsewhere, LimitDefinition limit) {
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
                List<RateLimitDecision> local = fromSlice(leased, limits.get(0), clock.nanoTime());
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

    /** Whether the key's slice would admit a call of {@code limit} now; takes nothing. */
    boolean holdsUnitsFor(String key, LimitDefinition limit) {
        LeasedKey leased = keys.get(key);
        Slice slice = leased == null ? null : leased.slice.get();
        return slice != null && slice.admits(limit, clock.nanoTime());
    }

    long leasedAdmissions() {
        return leasedAdmissions.sum();
    }

    long leasesTaken() {
        return leasesTaken.sum();
    }
}
