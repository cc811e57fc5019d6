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

    private final RedisDecisions redis;
    private final FleetSize fleet;
    /** The leases' time: the scripts' ({@code RateLimitTestClock} moves it with Redis's windows). */
    private final ScriptClock clock;
    private final InvalidationChannel invalidations;
    private final LeasedKeys keys;
    private final long leaseMillis;
    private final int minSlice;
    private final RecallWaits recalls;
    private final AtomicLong leaseIds = new AtomicLong();
    private final LongAdder leasedAdmissions = new LongAdder();
    private final LongAdder leasesTaken = new LongAdder();

    HotKeyDecisions(RedisDecisions redis, FleetSize fleet, ScriptClock clock, InstanceClock timers,
            InvalidationChannel invalidations, LeasedKeys keys, long leaseMillis, long waitMillis, int minSlice) {
        this.redis = redis;
        this.fleet = fleet;
        this.clock = clock;
        this.invalidations = invalidations;
        this.keys = keys;
        this.leaseMillis = leaseMillis;
        this.minSlice = minSlice;
        this.recalls = new RecallWaits(redis, fleet, clock, timers, keys, leaseMillis, waitMillis, this::fromSlice);
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
                        : recalls.whileRecalled(leased, seen, callKeys, limits, shadow, decisions));
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
                    leased.recalledUntilNanos = RecallWaits.comesBack(reply.decision(), reply.heldElsewhere(), limit)
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
                return recalls.afterRefusal(-1, callKeys, limits, shadow, decisions);
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
                    return recalls.afterRefusal(seenBefore, callKeys, limits, shadow, decisions);
                }
                return recalls.whileRecalled(leased, seenBefore, callKeys, limits, shadow, decisions);
            });
        });
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
