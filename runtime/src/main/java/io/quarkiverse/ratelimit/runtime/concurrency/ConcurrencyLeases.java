package io.quarkiverse.ratelimit.runtime.concurrency;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.github.benmanes.caffeine.cache.Caffeine;

import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;
import io.quarkiverse.ratelimit.ConcurrencySlot;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.runtime.admitted.GuardedCall;
import io.quarkiverse.ratelimit.runtime.cache.CacheBuiltOnFirstWrite;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RedisOperation;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.policy.TenantGate;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkiverse.ratelimit.runtime.redis.ScriptArguments;
import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.quarkiverse.ratelimit.runtime.redis.ScriptReplies;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkiverse.ratelimit.runtime.resilience.FailureModes;
import io.quarkiverse.ratelimit.runtime.resilience.GuardedRedis;
import io.quarkiverse.ratelimit.runtime.resilience.LocalFallback;
import io.quarkiverse.ratelimit.runtime.tenant.ResolvedTenant;
import io.quarkiverse.ratelimit.runtime.watch.RefusedCallers;
import io.smallrye.mutiny.Uni;

/**
 * Leases for {@code @ConcurrencyLimited} calls: acquired with {@code lua/concurrency.lua}, released with one ZREM,
 * behind the same timeout and circuit breaker as the rate limits. Without Redis, the failure mode decides: admit
 * (fail-open), 503 (fail-closed), or this instance's semaphore allowing its share of the limit (local:
 * {@code limit /} the instances sharing it, {@link FleetSize#sharing}).
 */
@Singleton
public class ConcurrencyLeases {

    private static final Logger LOG = Logger.getLogger(ConcurrencyLeases.class);

    private final ScriptClock clock;
    private final ScriptRunner scripts;
    private final RedisTransport transport;
    private final RateLimitKeys keys;
    private final GuardedRedis guarded;
    private final FailureModes failureModes;
    private final Duration timeout;
    /** How many instances share a limit without Redis: a local semaphore allows this instance's share. */
    private final FleetSize fleet;
    private final CacheBuiltOnFirstWrite<String, Semaphore> localSlots;
    private final RateLimitMetrics metrics;

    private final LimitModes modes;
    private final TenantGate gate;
    /** Who is refused most counts a full concurrency limit's refusals too. */
    private final RefusedCallers refusedCallers;

    ConcurrencyLeases(ScriptRunner scripts, RedisTransport transport, RateLimitKeys keys, GuardedRedis guarded,
            FailureModes failureModes, RateLimitConfig config, RateLimitMetrics metrics, LimitModes modes,
            TenantGate gate, ScriptClock clock, FleetSize fleet, RefusedCallers refusedCallers) {
        this.refusedCallers = refusedCallers;
        this.gate = gate;
        this.clock = clock;
        this.scripts = scripts;
        this.transport = transport;
        this.modes = modes;
        this.metrics = metrics;
        this.keys = keys;
        this.guarded = guarded;
        this.failureModes = failureModes;
        this.timeout = config.decisionTimeout();
        this.fleet = fleet;
        int maxSlots = config.localFallback().maxEntries();
        this.localSlots = new CacheBuiltOnFirstWrite<>(() -> Caffeine.newBuilder().maximumSize(maxSlots)
                .expireAfterAccess(1, TimeUnit.HOURS).<String, Semaphore> build());
    }

    /**
     * A lease, or a failure with {@link ConcurrencyLimitExceededException} when the tenant's limit is in flight, for
     * every way a concurrency limit is reached ({@code @ConcurrencyLimited}, {@code RateLimiter.acquireSlot}). The
     * tenant crosses the gate first ({@link TenantGate}: a blocked one fails with
     * {@link io.quarkiverse.ratelimit.TenantBlockedException}, an exempt one holds no lease). By
     * {@link LimitModes#concurrencyMode()}: {@code off} takes no lease (no Redis call); {@code shadow} takes one when
     * a slot is free and lets the call proceed without one when none is. Lazy: nothing is checked or taken before the
     * {@code Uni} is subscribed.
     */
    public Uni<Lease> acquire(ResolvedTenant tenant, ConcurrencyDefinition limit) {
        return Uni.createFrom().deferred(() -> {
            Mode mode = modes.concurrencyMode();
            if (!gate.limits(tenant.id(), tenant.tag()) || mode == Mode.OFF) {
                return Uni.createFrom().item(Lease.NONE);
            }
            return acquire(tenant, limit, mode == Mode.SHADOW);
        });
    }

    private Uni<Lease> acquire(ResolvedTenant tenant, ConcurrencyDefinition limit, boolean shadow) {
        String tenantTag = tenant.tag();
        String key = keys.concurrencyKey(tenantTag, limit.getName());
        String leaseId = UUID.randomUUID().toString();
        List<String> args = ScriptArguments.concurrency(clock.now(), limit, leaseId);
        List<String> leaseKeys = List.of(key, RateLimitKeys.cancelledLeaseKey(key, leaseId));
        return guarded.guarded(RedisOperation.CONCURRENCY, key,
                () -> scripts.send(scripts.scripts().concurrency(), leaseKeys, args)
                        .map(reply -> outcome(ScriptReplies.lease(reply), key, leaseId)),
                outcome -> {
                }, failure -> {
                    if (failure != null) {
                        giveUp(leaseKeys, limit, leaseId);
                    }
                    return withoutRedis(key, tenantTag, limit, failure);
                })
                .map(outcome -> {
                    if (outcome.lease() == null && shadow) {
                        LOG.debugf("Concurrency limit %s in shadow mode would have refused a call", limit.getName());
                        return Lease.NONE;
                    }
                    if (outcome.lease() == null) {
                        metrics.concurrencyRejected(limit.getName());
                        refusedCallers.refused(tenant.id(), tenantTag);
                        throw new ConcurrencyLimitExceededException(limit.getName(), limit.getLimit(),
                                outcome.retryAfter());
                    }
                    return outcome.lease();
                });
    }

    /**
     * Gives up a lease whose request was sent but not answered in time (the failure mode decides the call): the request
     * may still run when Redis answers again, and the slot it would take is held by nobody. The cancellation removes it,
     * or refuses it if it runs later ({@code lua/cancel_lease.lua}); it is sent now and runs whenever Redis can.
     */
    private void giveUp(List<String> leaseKeys, ConcurrencyDefinition limit, String leaseId) {
        scripts.run(scripts.scripts().cancelLease(), leaseKeys, ScriptArguments.cancelLease(limit, leaseId)).subscribe()
                .with(done -> {
                }, failure -> LOG.debugf(failure, "Could not give up lease %s; it expires with its lease", leaseId));
    }

    /** A lease, or a refusal ({@code lease} null) with when a slot frees at the latest ({@code null}: unknown). */
    private record Outcome(Lease lease, Duration retryAfter) {
    }

    private Outcome outcome(ScriptReplies.Lease reply, String key, String leaseId) {
        return reply.acquired() ? new Outcome(new Lease(this, key, leaseId, null), null)
                : new Outcome(null, reply.retryAfter());
    }

    private Outcome withoutRedis(String key, String tenantTag, ConcurrencyDefinition limit, Throwable cause) {
        return switch (failureModes.failureMode(limit.getFailureMode())) {
            case FAIL_OPEN -> new Outcome(Lease.NONE, null);
            case FAIL_CLOSED -> throw new RateLimiterUnavailableException(limit.getName(), guarded.retryAfter(key), cause);
            case LOCAL, DEFAULT -> {
                Semaphore slots = localSlots.built().get(tenantTag + '\n' + limit.getName(),
                        ignored -> new Semaphore((int) LocalFallback.instanceShare(limit.getLimit(), fleet.sharing())));
                yield new Outcome(slots.tryAcquire() ? new Lease(this, null, null, slots) : null, null);
            }
        };
    }

    Uni<Void> release(String key, String leaseId) {
        return metrics.timed(RedisOperation.CONCURRENCY,
                transport.removeFromSortedSet(key, leaseId).ifNoItem().after(timeout).fail())
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /**
     * A held slot. {@link #release()} gives it back once, however often it is called; a release that cannot reach
     * Redis leaves the lease to expire.
     */
    public static final class Lease implements ConcurrencySlot, GuardedCall.Guard {

        static final Lease NONE = new Lease(null, null, null, null);

        private final ConcurrencyLeases limiter;
        private final String key;
        private final String leaseId;
        private final Semaphore localSlots;
        private final AtomicBoolean released = new AtomicBoolean();

        Lease(ConcurrencyLeases limiter, String key, String leaseId, Semaphore localSlots) {
            this.limiter = limiter;
            this.key = key;
            this.leaseId = leaseId;
            this.localSlots = localSlots;
        }

        @Override
        public Uni<Void> failed(Throwable failure) {
            return release();
        }

        @Override
        public boolean holdsNothing() {
            return this == NONE;
        }

        @Override
        public Uni<Void> ended(Object result) {
            return release();
        }

        @Override
        public Uni<Void> release() {
            if (!released.compareAndSet(false, true)) {
                return Uni.createFrom().voidItem();
            }
            if (localSlots != null) {
                localSlots.release();
                return Uni.createFrom().voidItem();
            }
            return key == null ? Uni.createFrom().voidItem() : limiter.release(key, leaseId);
        }
    }
}
