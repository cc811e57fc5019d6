package io.quarkiverse.ratelimit.runtime.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Tenants' run-time limits, set by operators ({@code RateLimitAdmin}) and shared by every instance through Redis:
 * the hash {@code <prefix>:{~run-time-limits}} (field {@code "<tenant tag> <policy>"}, value the limit) and the
 * counter {@code <prefix>:{~run-time-limits}:version}, which every change increments. Each instance keeps a copy,
 * reloaded when a change is announced ({@link InvalidationChannel}: within milliseconds on every instance) and when
 * the version moved at the check every {@code run-time-limits.refresh-interval} (a change whose announcement an
 * instance missed applies within that interval), and decisions stay
 * single-key, atomic scripts (no extra key per call, so no TRYAGAIN while a cluster slot migrates). Tenants blocked at
 * run time are kept in the same hash, under the field {@code "<tenant tag> ~blocked"}. While Redis is
 * unreachable the last copy stays in force, also for the local fallback. The run-time switches of limits (mode,
 * rollout percentage, failure mode: {@code LimitModes}) live in the hash {@code <prefix>:{~run-time-limits}:switches}
 * under the same version. These keys are configuration, not counters: they have no TTL.
 */
@Singleton
public class RunTimeLimits {

    private static final Logger LOG = Logger.getLogger(RunTimeLimits.class);

    /** The field of a blocked tenant; no policy name starts with {@code ~}. */
    private static final String BLOCKED = "~blocked";

    private final RedisTransport redis;
    private final String hashKey;
    private final String versionKey;
    private final long refreshMillis;
    private final Vertx vertx;
    private final String switchesKey;
    private volatile Map<String, Map<String, Long>> byTenantTag = Map.of();
    /** Run-time switches, by {@code "<policy or name> <setting>"} ({@code *} for every limit). */
    private volatile Map<String, String> switches = Map.of();
    private volatile String version;
    private long timer = -1;

    private final InvalidationChannel invalidations;

    RunTimeLimits(RedisTransport redis, RateLimitConfig config, RateLimitKeys keys, Vertx vertx,
            InvalidationChannel invalidations) {
        this.redis = redis;
        this.invalidations = invalidations;
        this.hashKey = keys.runTimeLimitsKey();
        this.versionKey = keys.runTimeLimitsVersionKey();
        this.switchesKey = keys.switchesKey();
        this.refreshMillis = config.runTimeLimits().refreshInterval().toMillis();
        this.vertx = vertx;
    }

    // after the start-up checks, which may still fail the start
    void start(@Observes @Priority(Interceptor.Priority.LIBRARY_AFTER) StartupEvent event) {
        // a change announced by any instance is loaded at once, not at the next refresh
        invalidations.listen(new InvalidationChannel.Listener() {
            @Override
            public void keysChanged(List<String> keys) {
            }

            @Override
            public void everythingChanged() {
                refresh().subscribe().with(done -> {
                }, failure -> LOG.debugf(failure, "Could not refresh the run-time limits; the last ones stay in force"));
            }
        });
        refresh().subscribe().with(done -> {
        }, failure -> LOG.debugf(failure, "Could not load the run-time limits yet"));
        timer = vertx.setPeriodic(refreshMillis, id -> refresh().subscribe().with(done -> {
        }, failure -> LOG.debugf(failure, "Could not refresh the run-time limits; the last ones stay in force")));
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** The limits with the tenant's run-time values applied; the same object when it has none. */
    public MethodLimits apply(MethodLimits limits, String tenantTag) {
        Map<String, Long> tenantLimits = byTenantTag.get(tenantTag);
        if (tenantLimits == null) {
            return limits;
        }
        List<LimitDefinition> applied = apply(limits.getLimits(), tenantLimits);
        return applied == limits.getLimits() ? limits : limits.withLimits(applied);
    }

    /** The limits of one tenant with its run-time values applied; the same list when it has none. */
    public List<LimitDefinition> apply(List<LimitDefinition> limits, String tenantTag) {
        Map<String, Long> tenantLimits = byTenantTag.get(tenantTag);
        return tenantLimits == null ? limits : apply(limits, tenantLimits);
    }

    private static List<LimitDefinition> apply(List<LimitDefinition> limits, Map<String, Long> tenantLimits) {
        List<LimitDefinition> applied = null;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            Long value = limit.getScope() == Scope.TENANT ? tenantLimits.get(limit.overrideName()) : null;
            if (value != null && value != limit.getLimit()) {
                if (applied == null) {
                    applied = new ArrayList<>(limits);
                }
                applied.set(i, limit.withLimit(value));
            }
        }
        return applied == null ? limits : applied;
    }

    /** Stores a tenant's limit for a policy; this instance applies it at once, the others within the interval. */
    public Uni<Void> set(String tenantTag, String policy, long limit) {
        return change(Request.cmd(Command.HSET).arg(hashKey).arg(field(tenantTag, policy)).arg(limit));
    }

    public Uni<Void> remove(String tenantTag, String policy) {
        return change(Request.cmd(Command.HDEL).arg(hashKey).arg(field(tenantTag, policy)));
    }

    /** A tenant's run-time limits, by policy, as Redis holds them now. */
    public Uni<Map<String, Long>> read(String tenantTag) {
        return redis.command(Request.cmd(Command.HGETALL).arg(hashKey)).map(reply -> {
            Map<String, Long> limits = new TreeMap<>(parse(reply).getOrDefault(tenantTag, Map.of()));
            limits.remove(BLOCKED);
            return limits;
        });
    }

    /** Blocks or unblocks a tenant: every limited call of a blocked tenant is refused with 403. */
    public Uni<Void> block(String tenantTag, boolean blocked) {
        return blocked ? change(Request.cmd(Command.HSET).arg(hashKey).arg(field(tenantTag, BLOCKED)).arg(1))
                : remove(tenantTag, BLOCKED);
    }

    /** Whether the tenant is blocked at run time (as this instance last saw it). */
    public boolean isBlocked(String tenantTag) {
        Map<String, Long> tenant = byTenantTag.get(tenantTag);
        return tenant != null && tenant.containsKey(BLOCKED);
    }

    /**
     * Run-time switches of limits (mode, rollout percentage, failure mode), by {@code "<policy or name> <setting>"},
     * {@code *} standing for every limit; as this instance last saw them.
     */
    public Map<String, String> switches() {
        return switches;
    }

    /** Sets switches of one policy or name ({@code *}: every limit), all at once. */
    public Uni<Void> setSwitches(String name, Map<String, String> settings) {
        Request set = Request.cmd(Command.HSET).arg(switchesKey);
        settings.forEach((setting, value) -> set.arg(name + ' ' + setting).arg(value));
        return change(set);
    }

    /** Removes the switches of one policy or name: configuration applies again. */
    public Uni<Void> clearSwitches(String name, List<String> settings) {
        Request delete = Request.cmd(Command.HDEL).arg(switchesKey);
        settings.forEach(setting -> delete.arg(name + ' ' + setting));
        return change(delete);
    }

    /** Stores a change, then loads it here and announces it to every instance ({@link InvalidationChannel}). */
    private Uni<Void> change(Request change) {
        return redis.command(change)
                .chain(() -> redis.command(Request.cmd(Command.INCR).arg(versionKey)))
                .chain(this::refresh)
                .chain(invalidations::announceEverything);
    }

    /** Reloads the hash when the version moved. */
    Uni<Void> refresh() {
        return redis.command(Request.cmd(Command.GET).arg(versionKey)).chain(reply -> {
            String current = reply == null ? "" : reply.toString();
            if (current.equals(version)) {
                return Uni.createFrom().voidItem();
            }
            return redis.command(Request.cmd(Command.HGETALL).arg(hashKey))
                    .flatMap(hash -> redis.command(Request.cmd(Command.HGETALL).arg(switchesKey)).map(switched -> {
                        byTenantTag = parse(hash);
                        switches = strings(switched);
                        version = current;
                        return null;
                    }));
        });
    }

    private static Map<String, Map<String, Long>> parse(Response hash) {
        Map<String, Map<String, Long>> limits = new HashMap<>();
        if (hash == null) {
            return limits;
        }
        for (String field : hash.getKeys()) {
            int separator = field.indexOf(' ');
            if (separator > 0) {
                limits.computeIfAbsent(field.substring(0, separator), tag -> new HashMap<>())
                        .put(field.substring(separator + 1), hash.get(field).toLong());
            }
        }
        return limits;
    }

    private static Map<String, String> strings(Response hash) {
        if (hash == null || hash.size() == 0) {
            return Map.of();
        }
        Map<String, String> values = new HashMap<>();
        for (String field : hash.getKeys()) {
            values.put(field, hash.get(field).toString());
        }
        return Map.copyOf(values);
    }

    /** Tenant tags and policy names never contain a space (both are escaped or validated). */
    private static String field(String tenantTag, String policy) {
        return tenantTag + ' ' + policy;
    }
}
