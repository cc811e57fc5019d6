package io.quarkiverse.ratelimit.runtime.outgoing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationListener;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * What adaptive limits ({@code @RateLimited(adaptive = true)}) learned of the quota their upstream really grants,
 * fleet-wide: a 429 of the upstream lowers the limit of the call's key in Redis ({@code lua/adapt.lua}), which announces
 * the new value to every instance; each instance keeps a copy ({@link LearnedLimit} by limit key) and decides the key's
 * calls with the learned limit while it is below the configured one. Growing back needs no write: every instance
 * computes it from the same value. The copy is loaded at start-up and reloaded every
 * {@code run-time-limits.refresh-interval}, for an announcement an instance missed.
 */
@Singleton
public class AdaptiveLimits {

    private static final Logger LOG = Logger.getLogger(AdaptiveLimits.class);

    private final RedisDecisions decisions;
    private final RedisTransport redis;
    private final EffectiveLimits limits;
    private final RateLimitMetrics metrics;
    private final Vertx vertx;
    private final String learnedKey;
    private final double decreaseFactor;
    private final long intervalMillis;
    private final double increaseStep;
    private final long longestHoldMillis;
    private final long refreshMillis;
    /** By limit key: what the fleet learned, as this instance last heard it. */
    private final ConcurrentMap<String, LearnedLimit> byKey = new ConcurrentHashMap<>();
    /** By limit key: its limit's name, for the metric; the keys this instance decided with a learned limit. */
    private final ConcurrentMap<String, String> nameByKey = new ConcurrentHashMap<>();
    /** Every adaptive limit of the application, by name, with its configured limit (set at start-up). */
    private volatile Map<String, Long> configuredByName = Map.of();
    private long timer = -1;
    /** Wall time, as the learned limits' times in Redis are (they are written with Redis {@code TIME}). */
    private final InstanceClock clock;

    AdaptiveLimits(RedisDecisions decisions, RedisTransport redis, RateLimitKeys keys, RateLimitConfig config,
            EffectiveLimits limits, RateLimitMetrics metrics, InvalidationChannel invalidations, Vertx vertx,
            InstanceClock clock) {
        this.clock = clock;
        this.decisions = decisions;
        this.redis = redis;
        this.limits = limits;
        this.metrics = metrics;
        this.vertx = vertx;
        this.learnedKey = keys.learnedLimitsKey();
        this.decreaseFactor = config.adaptive().decreaseFactor();
        this.intervalMillis = config.adaptive().increaseInterval().toMillis();
        this.increaseStep = config.adaptive().increaseStep();
        this.longestHoldMillis = config.adaptive().longestHold().toMillis();
        this.refreshMillis = config.runTimeLimits().refreshInterval().toMillis();
        invalidations.listen(new InvalidationListener() {
            @Override
            public void learned(String key, String learned) {
                heard(key, LearnedLimit.parse(learned));
            }
        });
    }

    void start(@Observes StartupEvent event) {
        Map<String, Long> adaptive = adaptiveLimits();
        configuredByName = adaptive;
        if (adaptive.isEmpty()) {
            return;
        }
        adaptive.forEach((name, configured) -> metrics.adaptiveLimit(name, () -> lowest(name, configured)));
        reload();
        timer = vertx.setPeriodic(refreshMillis, id -> reload());
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /**
     * The limits with what the fleet learned of their keys applied: an adaptive limit whose key learned a lower value
     * is decided with it (its burst no larger); the same list when none did.
     */
    public List<LimitDefinition> apply(List<LimitDefinition> limits, List<String> keys) {
        if (byKey.isEmpty()) {
            return limits;
        }
        long now = clock.currentTimeMillis();
        List<LimitDefinition> applied = null;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            LearnedLimit learned = limit.isAdaptive() ? byKey.get(keys.get(i)) : null;
            if (learned == null) {
                continue;
            }
            long value = learned.limitAt(now, limit.getLimit(), intervalMillis, step(limit));
            if (value < limit.getLimit()) {
                if (applied == null) {
                    applied = new ArrayList<>(limits);
                }
                applied.set(i, limit.learned(value));
                nameByKey.putIfAbsent(keys.get(i), limit.getName());
            }
        }
        return applied == null ? limits : applied;
    }

    /** {@link #apply(List, List)} on a method's limits; the same object when nothing was learned for its keys. */
    public MethodLimits apply(MethodLimits method, List<String> keys) {
        List<LimitDefinition> applied = apply(method.getLimits(), keys);
        return applied == method.getLimits() ? method : method.withLimits(applied);
    }

    /**
     * The upstream of a call of these limits answered 429: each adaptive one is lowered fleet-wide, at once on this
     * instance, within milliseconds on the others; unless the call was decided before the limit's last decrease (it went
     * at the rate the limit had then: the same refusal).
     *
     * @param limits the limits as configured (not as learned): what the learned limit grows back to
     * @param decidedAtMillis when Redis decided the refused call (wall clock, ms)
     */
    public Uni<Void> refused(List<String> keys, List<LimitDefinition> limits, long decidedAtMillis) {
        Uni<Void> lowered = Uni.createFrom().voidItem();
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            if (!limit.isAdaptive()) {
                continue;
            }
            String key = keys.get(i);
            nameByKey.putIfAbsent(key, limit.getName());
            List<String> arguments = List.of(key, limit.limitDecimal(), Long.toString(decidedAtMillis),
                    Double.toString(decreaseFactor), Long.toString(intervalMillis), Double.toString(step(limit)),
                    Long.toString(longestHoldMillis));
            lowered = lowered.chain(() -> decisions.adapt(learnedKey, arguments)
                    .invoke(learned -> heard(key, LearnedLimit.parse(learned))).replaceWithVoid());
        }
        return lowered;
    }

    /**
     * What the adaptive limits of this application learned, as this instance holds it now (Dev UI): by limit name, the
     * learned limit of each of its keys that is below the configured one.
     */
    public Map<String, Map<String, Long>> learnedNow() {
        Map<String, Map<String, Long>> learnedByName = new TreeMap<>();
        long now = clock.currentTimeMillis();
        nameByKey.forEach((key, name) -> {
            LearnedLimit learned = byKey.get(key);
            Long configured = configuredByName.get(name);
            if (learned != null && configured != null) {
                long value = learned.limitAt(now, configured, intervalMillis, configured * increaseStep);
                if (value < configured) {
                    learnedByName.computeIfAbsent(name, ignored -> new TreeMap<>()).put(key, value);
                }
            }
        });
        return learnedByName;
    }

    /** The first step a limit's learned value grows by, in units. */
    private double step(LimitDefinition limit) {
        return limit.getLimit() * increaseStep;
    }

    private void heard(String key, LearnedLimit learned) {
        if (learned != null) {
            byKey.put(key, learned);
        }
    }

    /** The lowest learned limit of a limit name's keys on this instance; the configured one when none is lower. */
    private double lowest(String name, long configured) {
        long now = clock.currentTimeMillis();
        long lowest = configured;
        for (Map.Entry<String, String> key : nameByKey.entrySet()) {
            LearnedLimit learned = name.equals(key.getValue()) ? byKey.get(key.getKey()) : null;
            if (learned != null) {
                lowest = Math.min(lowest, learned.limitAt(now, configured, intervalMillis, configured * increaseStep));
            }
        }
        return lowest;
    }

    /** Every adaptive limit of the application, by name, with its configured limit. */
    private Map<String, Long> adaptiveLimits() {
        Map<String, Long> adaptive = new TreeMap<>();
        limits.all().values().forEach(method -> {
            for (LimitDefinition limit : method.limits().getLimits()) {
                if (limit.isAdaptive()) {
                    adaptive.put(limit.getName(), limit.getLimit());
                }
            }
        });
        return adaptive;
    }

    /** Loads every learned value from Redis, and forgets those that can no longer lower a limit. */
    private void reload() {
        redis.command(Request.cmd(Command.HGETALL).arg(learnedKey)).subscribe().with(this::loaded,
                failure -> LOG.debugf(failure, "Could not load the adaptive limits; the last ones stay in force"));
    }

    private void loaded(Response hash) {
        long now = clock.currentTimeMillis();
        if (hash != null) {
            for (String key : hash.getKeys()) {
                heard(key, LearnedLimit.parse(hash.get(key).toString()));
            }
        }
        long stepsToGrowBack = (long) Math.ceil(1 / increaseStep) + 50;
        byKey.entrySet().removeIf(entry -> entry.getValue().expired(now, intervalMillis, stepsToGrowBack));
    }
}
