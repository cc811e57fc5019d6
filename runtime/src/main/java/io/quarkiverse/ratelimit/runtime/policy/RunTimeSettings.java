package io.quarkiverse.ratelimit.runtime.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationListener;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * What operators set at run time, shared by every instance through Redis, and this instance's copy of it: tenants'
 * run-time limits and blocks ({@link RunTimeLimits}) in the hash {@link RateLimitKeys#runTimeLimitsKey()} (field
 * {@code "<tenant tag> <policy>"}), the switches of limits ({@link RunTimeSwitches}) in
 * {@link RateLimitKeys#switchesKey()}, and one version counter that every change increments. A change is stored,
 * loaded here at once and announced ({@link InvalidationChannel}); every instance reloads when it hears it, and checks
 * the version every {@code run-time-limits.refresh-interval} for an announcement it missed. Decisions stay single-key
 * atomic scripts: no extra key per call, so no TRYAGAIN while a cluster slot migrates. While Redis is unreachable the
 * last copy stays in force, also for the local fallback. These keys are configuration, not counters: no TTL.
 */
@Singleton
public class RunTimeSettings {

    private static final Logger LOG = Logger.getLogger(RunTimeSettings.class);

    private final RedisTransport redis;
    private final String hashKey;
    private final String versionKey;
    private final String switchesKey;
    private final long refreshMillis;
    private final Vertx vertx;
    private final InvalidationChannel invalidations;
    /** By tenant tag: its run-time limits by policy (and its block), as last loaded. */
    private volatile Map<String, Map<String, Long>> byTenantTag = Map.of();
    /** Run-time switches, by {@code "<policy or name> <setting>"} ({@code *} for every limit), as last loaded. */
    private volatile Map<String, String> switches = Map.of();
    private volatile String version;
    private long timer = -1;

    RunTimeSettings(RedisTransport redis, RateLimitConfig config, RateLimitKeys keys, Vertx vertx,
            InvalidationChannel invalidations) {
        this.redis = redis;
        this.invalidations = invalidations;
        this.hashKey = keys.runTimeLimitsKey();
        this.versionKey = keys.runTimeLimitsVersionKey();
        this.switchesKey = keys.switchesKey();
        this.refreshMillis = config.runTimeLimits().refreshInterval().toMillis();
        this.vertx = vertx;
    }

    void start(@Observes StartupEvent event) {
        // a change announced by any instance is loaded at once, not at the next refresh
        invalidations.listen(new InvalidationListener() {
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

    /** A tenant's settings by name (policies, and its block), as this instance last loaded them; {@code null}: none. */
    Map<String, Long> tenant(String tenantTag) {
        return byTenantTag.get(tenantTag);
    }

    /** The switches, as this instance last loaded them. */
    Map<String, String> switches() {
        return switches;
    }

    /** A tenant's settings as Redis holds them now. */
    Uni<Map<String, Long>> readTenant(String tenantTag) {
        return redis.command(Request.cmd(Command.HGETALL).arg(hashKey))
                .map(reply -> parse(reply).getOrDefault(tenantTag, Map.of()));
    }

    /** Sets fields of a tenant's settings ({@code "<tenant tag> <name>"}). */
    Uni<Void> setTenant(String field, long value) {
        return change(Request.cmd(Command.HSET).arg(hashKey).arg(field).arg(value));
    }

    Uni<Void> removeTenant(String field) {
        return change(Request.cmd(Command.HDEL).arg(hashKey).arg(field));
    }

    /** Sets switches, all at once. */
    Uni<Void> setSwitches(Map<String, String> fields) {
        Request set = Request.cmd(Command.HSET).arg(switchesKey);
        fields.forEach((field, value) -> set.arg(field).arg(value));
        return change(set);
    }

    Uni<Void> removeSwitches(List<String> fields) {
        Request delete = Request.cmd(Command.HDEL).arg(switchesKey);
        fields.forEach(delete::arg);
        return change(delete);
    }

    /** Stores a change, then loads it here and announces it to every instance ({@link InvalidationChannel}). */
    private Uni<Void> change(Request change) {
        return redis.command(change)
                .chain(() -> redis.command(Request.cmd(Command.INCR).arg(versionKey)))
                .chain(this::refresh)
                .chain(invalidations::announceEverything);
    }

    /** Reloads both hashes when the version moved. */
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
        Map<String, Map<String, Long>> settings = new HashMap<>();
        if (hash == null) {
            return settings;
        }
        for (String field : hash.getKeys()) {
            int separator = field.indexOf(' ');
            if (separator > 0) {
                settings.computeIfAbsent(field.substring(0, separator), tag -> new HashMap<>())
                        .put(field.substring(separator + 1), hash.get(field).toLong());
            }
        }
        return settings;
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
}
