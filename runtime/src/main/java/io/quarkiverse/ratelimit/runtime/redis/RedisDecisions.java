package io.quarkiverse.ratelimit.runtime.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.limit.AlgorithmSet;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkiverse.ratelimit.runtime.store.CountStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;

/**
 * The counts kept in Redis ({@link CountStore}): every operation on one call's limits is one atomic call of the
 * function library ({@code lua/}), which records a call in every limit or, if any limit refuses, in none, and announces
 * what gives units back to every instance ({@link InvalidationChannel}).
 */
@Singleton
@Typed(RedisDecisions.class) // the decisions' CountStore is the leases' store in front of it (lease/LeasedCounts)
public class RedisDecisions implements CountStore {

    private final ScriptRunner scripts;
    private final InvalidationChannel invalidations;
    private final ScriptClock clock;
    private final RedisClockReadings redisClocks;
    /** This instance's time, which a waiting call's slot is set in. */
    private final InstanceClock instanceClock;

    RedisDecisions(ScriptRunner scripts, InvalidationChannel invalidations, ScriptClock clock,
            RedisClockReadings redisClocks, InstanceClock instanceClock) {
        this.instanceClock = instanceClock;
        this.scripts = scripts;
        this.invalidations = invalidations;
        this.clock = clock;
        this.redisClocks = redisClocks;
    }

    /**
     * One decision per limit, in declaration order; the call is admitted only if every one allows it. The limits in
     * {@code shadow} are in shadow mode: decided and recorded as if enforced, but their refusal does not refuse the
     * call (nor stop the other limits recording it).
     *
     * @param limitKeys the key of each limit ({@code RateLimitKeys}), all in one hash slot
     */
    @Override
    public Future<List<RateLimitDecision>> decide(List<String> limitKeys, List<LimitDefinition> limits,
            ShadowMask shadow) {
        // when the request left bounds when Redis decided, which only a call that may wait needs
        long sent = WaitingCalls.maxWaitMillis(limits) > 0 ? instanceClock.nanoTime() : 0;
        return scripts.decide(scripts.scripts().decide(AlgorithmSet.of(limits)), limitKeys,
                ScriptArguments.limits(clock.now(), limits, shadow))
                .map(reply -> decisions(limitKeys, limits, reply, sent));
    }

    /**
     * The decisions of {@code reply}; a call that waits for a later slot with when Redis decided, in this instance's
     * clock ({@link TimedDecisions}): its wait counts from there.
     */
    private List<RateLimitDecision> decisions(List<String> limitKeys, List<LimitDefinition> limits, Response reply,
            long sent) {
        List<RateLimitDecision> decisions = ScriptReplies.decisions(limits, reply);
        long redisMicros = ScriptReplies.decisionClockMicros(limits, reply);
        return redisMicros < 0 ? decisions
                : new TimedDecisions(decisions,
                        redisClocks.decidedAtNanos(limitKeys.get(0), sent, instanceClock.nanoTime(), redisMicros));
    }

    /**
     * Gives back, in one atomic call, what an admitted call consumed of each limit (clamped by every algorithm), and
     * announces it to every instance ({@link InvalidationChannel}).
     */
    @Override
    public Future<Void> refund(List<String> limitKeys, List<LimitDefinition> limits) {
        return scripts.write(scripts.scripts().refund(AlgorithmSet.of(limits)), limitKeys,
                ScriptArguments.refund(clock.now(), limits, invalidations.channel())).mapEmpty();
    }

    /**
     * Settles a reservation in one atomic call ({@code settle.lua}): each limit's cost is the difference, real minus
     * reserved, given back when below zero and charged (beyond the limit if need be) when above; emits each limit's
     * state after it. A refund is announced to every instance ({@link InvalidationChannel}).
     */
    @Override
    public Future<List<RateLimitDecision>> settle(List<String> limitKeys, List<LimitDefinition> limits) {
        return scripts.write(scripts.scripts().settle(AlgorithmSet.of(limits)), limitKeys,
                ScriptArguments.settle(clock.now(), limits, invalidations.channel()))
                .map(reply -> ScriptReplies.decisions(limits, reply));
    }

    /**
     * Pauses the limits for {@code pause} from the Redis clock (an upstream's retry time): none admits a call before,
     * on any instance, and every instance hears of it ({@link InvalidationChannel}); the limits that cannot pause
     * (counting windows) are left alone.
     */
    @Override
    public Future<Void> pause(List<String> limitKeys, List<LimitDefinition> limits, Duration pause) {
        return scripts.write(scripts.scripts().pause(AlgorithmSet.of(limits)), limitKeys,
                ScriptArguments.pause(clock.now(), limits, Math.max(1, pause.toMillis()),
                        invalidations.channel()))
                .mapEmpty();
    }

    /**
     * Lowers an adaptive limit's learned value after its upstream answered 429, fleet-wide ({@code lua/adapt.lua}),
     * and announces the new value; emits it ({@code "<base> <since> <hold>"}).
     *
     * @param learnedKey the hash of learned limits
     * @param arguments the limit key and the learning's parameters, as {@code lua/adapt.lua} takes them, without the
     *        channel
     */
    public Uni<String> adapt(String learnedKey, List<String> arguments) {
        List<String> args = new ArrayList<>(arguments);
        args.add(invalidations.channel());
        return scripts.run(scripts.scripts().adapt(), List.of(learnedKey), args).map(Object::toString);
    }

    /**
     * Decides a call of one limit and leases this instance a slice of what is left with it, in one atomic call
     * ({@code lua/lease.lua}), giving back first what lease {@code previousId} of this instance left unused ({@code unused}).
     * Redis
     * counts the slice at once; it is at most {@code wanted}, and at most what is left after the call over
     * {@code share}, and none when that is less than {@code minSlice}.
     */
    public Future<LeaseReply> takeLease(String limitKey, LimitDefinition limit, String instance, String previousId,
            long unused, String leaseId, long wanted, long minSlice, int share, long maxLeaseMillis) {
        List<LimitDefinition> limits = List.of(limit);
        return scripts.send(scripts.scripts().lease(AlgorithmSet.of(limits)), List.of(limitKey, leasesKey(limitKey)),
                ScriptArguments.takeLease(clock.now(), limit, instance, previousId, unused, leaseId, wanted, minSlice, share,
                        maxLeaseMillis,
                        invalidations.channel()))
                .map(reply -> new LeaseReply(ScriptReplies.decisions(limits, reply).get(0), reply.get(4).toLong(),
                        reply.get(5).toLong(), reply.get(6).toLong()))
                // a cluster slot being migrated may hold one of its two keys and not the other: the script changed
                // nothing (lua/lease.lua reads both first), and the call is decided alone, its one key followed to
                // its node; no lease (what the previous one left stays counted: the safe side)
                .recover(failure -> RedisErrors.isNotLocal(failure)
                        ? decide(List.of(limitKey), limits, ShadowMask.NONE)
                                .map(decided -> new LeaseReply(decided.get(0), 0, 0, 0))
                        : Future.failedFuture(failure));
    }

    /**
     * Gives back what lease {@code leaseId} of this instance left unused ({@code lua/lease.lua}): counted only while the
     * lease's window lasts, and not after a reset. Emits the units given back.
     */
    public Future<Long> returnLease(String limitKey, LimitDefinition limit, String instance, String leaseId,
            long unused) {
        List<LimitDefinition> limits = List.of(limit);
        return scripts.write(scripts.scripts().lease(AlgorithmSet.of(limits)), List.of(limitKey, leasesKey(limitKey)),
                ScriptArguments.returnLease(clock.now(), limit, instance, leaseId, unused, invalidations.channel()))
                .map(Response::toLong);
    }

    /**
     * Recalls what the other instances' leases of the limit can still give back ({@code lua/lease.lua}): each gives
     * back what its slice left, announcing the change. Emits the units they held, at most what comes back.
     */
    public Future<Long> recallLeases(String limitKey, LimitDefinition limit, String instance, long maxLeaseMillis) {
        List<LimitDefinition> limits = List.of(limit);
        return scripts.write(scripts.scripts().lease(AlgorithmSet.of(limits)), List.of(limitKey, leasesKey(limitKey)),
                ScriptArguments.recallLeases(clock.now(), limit, instance, maxLeaseMillis, invalidations.channel()))
                .map(Response::toLong);
    }

    /** The hash of the slices leased of a limit key ({@code lua/lease.lua}; {@code lua/reset.lua} deletes it too). */
    static String leasesKey(String limitKey) {
        return limitKey + ":leases";
    }

    /**
     * A decision with its lease: the units leased (0: none), how long the lease lasts, from when the request was sent,
     * and, near the limit, the units the other instances' live leases hold, which Redis recalled.
     */
    public record LeaseReply(RateLimitDecision decision, long slice, long leaseMillis, long heldElsewhere) {
    }

    /** The units leased out of each key's count and not given back ({@code lua/leased.lua}): what slices hold at most. */
    @Override
    public Future<List<Long>> leased(List<String> limitKeys) {
        List<String> leases = limitKeys.stream().map(RedisDecisions::leasesKey).toList();
        return scripts.write(scripts.scripts().leased(), leases, ScriptArguments.leased(clock.now()))
                .map(reply -> {
                    List<Long> units = new ArrayList<>(reply.size());
                    reply.forEach(held -> units.add(held.toLong()));
                    return units;
                });
    }

    /**
     * Deletes the state of the given limits' keys (all in one hash slot), and announces it to every instance; emits
     * how many keys held state.
     */
    @Override
    public Future<Integer> reset(List<String> limitKeys) {
        return scripts.write(scripts.scripts().reset(), limitKeys, ScriptArguments.reset(invalidations.channel()))
                .map(Response::toInteger);
    }
}
