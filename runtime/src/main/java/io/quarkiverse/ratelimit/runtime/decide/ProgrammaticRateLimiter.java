package io.quarkiverse.ratelimit.runtime.decide;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Charge;
import io.quarkiverse.ratelimit.ConcurrencyLimit;
import io.quarkiverse.ratelimit.ConcurrencySlot;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitUsage;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Reservation;
import io.quarkiverse.ratelimit.runtime.admitted.LateSettlements;
import io.quarkiverse.ratelimit.runtime.concurrency.ConcurrencyLeases;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkiverse.ratelimit.runtime.policy.CodeLimits;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeLimits;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
import io.quarkiverse.ratelimit.runtime.tenant.ResolvedTenant;
import io.smallrye.mutiny.Uni;

/**
 * The {@link RateLimiter} bean: each call that takes units goes the annotation's way ({@link CallResolver}: the tenant
 * gate, run-time limits, modes; {@link CallAdmitter}: the decision and its wait), with limits and tenant given by the
 * caller; a slot goes through
 * {@link ConcurrencyLeases}, which crosses the same gate.
 */
@Singleton
public class ProgrammaticRateLimiter implements RateLimiter {

    private static final int REMEMBERED_LIMITS = 1024;

    private final CallResolver calls;
    private final CallAdmitter admitter;
    private final DecisionGuard guard;
    private final ConcurrencyLeases concurrency;
    private final RateLimitKeys keys;
    private final RunTimeLimits runTimeLimits;
    private final LateSettlements lateSettlements;
    private final CodeLimits codeLimits;
    private final TenantUsage usage;
    /** The instance's time, as the test clock moves it: a reservation's lease runs out by it. */
    private final ScriptClock clock;
    /** {@code reservation-lease}: how long a reservation can still be settled. */
    private final long leaseNanos;
    /** The limits decided at cost 1, by identity of the {@link RateLimit} ({@link #atCostOne}): taken at once. */
    private final Map<RateLimit, MethodLimits> tryingAtCostOne = new ConcurrentHashMap<>();
    /** The same, for calls that may wait for a later slot ({@link RateLimit#maxWait()}). */
    private final Map<RateLimit, MethodLimits> waitingAtCostOne = new ConcurrentHashMap<>();

    ProgrammaticRateLimiter(CallResolver calls, CallAdmitter admitter, DecisionGuard guard, ConcurrencyLeases concurrency,
            RateLimitKeys keys, RunTimeLimits runTimeLimits, LateSettlements lateSettlements, CodeLimits codeLimits,
            ScriptClock clock, RateLimitConfig config, TenantUsage usage) {
        this.usage = usage;
        this.clock = clock;
        this.codeLimits = codeLimits;
        this.lateSettlements = lateSettlements;
        this.leaseNanos = config.reservationLease().toNanos();
        this.calls = calls;
        this.admitter = admitter;
        this.guard = guard;
        this.concurrency = concurrency;
        this.keys = keys;
        this.runTimeLimits = runTimeLimits;
    }

    @Override
    public Uni<ConcurrencySlot> acquireSlot(ConcurrencyLimit limit, String tenant) {
        ConcurrencyDefinition definition = new ConcurrencyDefinition(limit.name(), limit.limit(),
                limit.lease().toMillis(), limit.failureMode(), ReturnKind.UNI);
        return concurrency.acquire(new ResolvedTenant(tenant, tag(tenant)), definition).map(lease -> lease);
    }

    @Override
    public Uni<List<RateLimitUsage>> usage(String tenant) {
        return usage.of(tenant);
    }

    @Override
    public Uni<RateLimitDecision> tryAcquire(RateLimit limit, String tenant, long cost) {
        return first(tenant, used(limit, cost == 1 ? atCostOne(limit, false) : single(limit, decidedCost(limit, cost), false)));
    }

    @Override
    public Uni<List<RateLimitDecision>> tryAcquireAll(List<RateLimit> limits, String tenant) {
        return decide(tenant, used(limits, several(limits, false)));
    }

    @Override
    public Uni<RateLimitDecision> acquire(RateLimit limit, String tenant, long cost) {
        return first(tenant, used(limit, cost == 1 ? atCostOne(limit, true) : single(limit, decidedCost(limit, cost), true)));
    }

    @Override
    public Uni<List<RateLimitDecision>> acquireAll(List<RateLimit> limits, String tenant) {
        MethodLimits waiting = several(limits, true);
        String violation = WaitingCalls.violation(waiting.getLimits());
        if (violation != null) {
            throw new IllegalArgumentException("A call of " + limits + " cannot wait: " + violation);
        }
        return decide(tenant, used(limits, waiting));
    }

    @Override
    public Uni<Reservation> reserve(List<Charge> charges, String tenant) {
        if (charges.isEmpty()) {
            throw new IllegalArgumentException("No charges to reserve");
        }
        List<LimitDefinition> definitions = new ArrayList<>(charges.size());
        Set<String> estimated = new HashSet<>();
        for (Charge charge : charges) {
            if (definitions.stream().anyMatch(limit -> limit.getName().equals(charge.limit().name()))) {
                throw new IllegalArgumentException("Two charges of one limit, '" + charge.limit().name() + "': " + charges);
            }
            definitions.add(definition(charge.limit(), decidedCost(charge.limit(), charge.units()), false));
            if (charge.estimated()) {
                estimated.add(charge.limit().name());
            }
        }
        MethodLimits limits = used(charges.stream().map(Charge::limit).toList(),
                new MethodLimits(definitions, ReturnKind.UNI).settled());
        return DirectUni.mapped(decided(tenant, limits),
                decision -> new SettlingReservation(decision, decision.perLimit(definitions), estimated,
                        clock.nanoTime() + leaseNanos, clock::nanoTime, lateSettlements::settledLate));
    }

    /** {@code limits}, decided as {@code decided}: each recorded as a limit made in code that a call used. */
    private MethodLimits used(List<RateLimit> limits, MethodLimits decided) {
        for (int i = 0; i < limits.size(); i++) {
            codeLimits.used(limits.get(i), decided.getLimits().get(i));
        }
        return decided;
    }

    private MethodLimits used(RateLimit limit, MethodLimits decided) {
        codeLimits.used(limit, decided.getLimits().get(0));
        return decided;
    }

    /** Every limit's decision, in order ({@link CallDecision#perLimit}). */
    private Uni<List<RateLimitDecision>> decide(String tenant, MethodLimits limits) {
        return DirectUni.mapped(decided(tenant, limits), decision -> decision.perLimit(limits.getLimits()));
    }

    /** The one limit's decision. */
    private Uni<RateLimitDecision> first(String tenant, MethodLimits limit) {
        return DirectUni.mapped(decided(tenant, limit), decision -> decision.perLimit(limit.getLimits()).get(0));
    }

    /**
     * The call resolved and decided on the annotation's path. Lazy: the gate is crossed when the {@code Uni} is
     * subscribed.
     */
    private Uni<CallDecision> decided(String tenant, MethodLimits limits) {
        Objects.requireNonNull(tenant, "tenant");
        return DirectUni.deferred(() -> admitter.decide(calls.resolve(tenant, limits)));
    }

    @Override
    public Uni<Void> refund(RateLimit limit, String tenant, long cost) {
        String tag = tag(tenant);
        List<LimitDefinition> definitions = runTimeLimits.apply(List.of(definition(limit, checkedCost(limit, cost), false)),
                tag);
        return guard.refund(keys.keys(tag, definitions), definitions);
    }

    @Override
    public Uni<Void> reset(RateLimit limit, String tenant) {
        LimitDefinition definition = definition(limit, 0, false);
        return guard.reset(List.of(keys.key(tag(tenant), definition)), List.of(definition)).replaceWithVoid();
    }

    /**
     * Units a call asks for: 0 or more. A cost above what the limit can ever hold is decided as every cost is, and
     * refused, consuming nothing, with no retry time (it never fits), as a call of the annotation is whose run-time limit
     * fell below its cost; one above every limit is sent as the smallest such ({@link LimitRules#decidedCost}).
     */
    private static long decidedCost(RateLimit limit, long cost) {
        if (cost < 0) {
            throw new IllegalArgumentException("A call of '" + limit.name() + "' costs 0 or more units, not " + cost);
        }
        return LimitRules.decidedCost(cost);
    }

    /** Units given back at once: 0 up to what the limit holds at most (its burst, else the limit). */
    private static long checkedCost(RateLimit limit, long cost) {
        String violation = LimitRules.cost(cost, limit.limit(), limit.burst());
        if (violation != null) {
            throw new IllegalArgumentException("A call of '" + limit.name() + "' costs " + cost + "; " + violation);
        }
        return cost;
    }

    /**
     * The limit as a call's limits at cost 1, the usual call: made once per limit, since most code keeps its limits as
     * constants and a decision should not rebuild them. {@link RateLimit} is compared by identity; code that makes a
     * limit per call fills the memory up to {@link #REMEMBERED_LIMITS} and it starts again.
     */
    private MethodLimits atCostOne(RateLimit limit, boolean waits) {
        Map<RateLimit, MethodLimits> remembered = waits ? waitingAtCostOne : tryingAtCostOne;
        MethodLimits limits = remembered.get(limit);
        if (limits == null) {
            if (remembered.size() >= REMEMBERED_LIMITS) {
                remembered.clear();
            }
            limits = single(limit, 1, waits);
            remembered.put(limit, limits);
        }
        return limits;
    }

    private static MethodLimits single(RateLimit limit, long cost, boolean waits) {
        return new MethodLimits(List.of(definition(limit, cost, waits)), ReturnKind.UNI);
    }

    private static MethodLimits several(List<RateLimit> limits, boolean waits) {
        if (limits.isEmpty()) {
            throw new IllegalArgumentException("No limits to acquire");
        }
        List<LimitDefinition> definitions = new ArrayList<>(limits.size());
        for (RateLimit limit : limits) {
            definitions.add(definition(limit, 1, waits));
        }
        return new MethodLimits(definitions, ReturnKind.UNI);
    }

    /** @param waits whether a call may wait up to the limit's {@link RateLimit#maxWait()} for a later slot */
    private static LimitDefinition definition(RateLimit limit, long cost, boolean waits) {
        return LimitDefinition.builder(limit.name(), limit.limit(), limit.window().toMillis())
                .algorithm(limit.algorithm()).failureMode(limit.failureMode()).cost(cost).burst(limit.burst())
                .calendar(limit.period(), limit.timeZone() == null ? null : limit.timeZone().getId(), limit.anchorDay())
                .maxWait(waits ? limit.maxWait().toMillis() : 0)
                .lateSlotTolerance(limit.lateSlotTolerance() == null ? -1 : limit.lateSlotTolerance().toMillis())
                .build();
    }

    private static String tag(String tenant) {
        return TenantTags.forTenant(Objects.requireNonNull(tenant, "tenant"));
    }
}
