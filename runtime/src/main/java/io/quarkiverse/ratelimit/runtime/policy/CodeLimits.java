package io.quarkiverse.ratelimit.runtime.policy;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The limits made in code ({@code RateLimit.of}) that calls have used, so that operators name them as they name an
 * annotation's limits (the admin API, the Dev UI). An instance records a limit the first time a call uses it, and again
 * an hour later while calls still use it: in this instance, and in Redis ({@link RateLimitKeys#codeLimitsKey()}, a
 * hash by name kept {@link #KEPT} after its last write), where every instance of the fleet finds a limit another one
 * used. What a name records is what the key of its counters and a look at them need: the algorithm, the limit, the
 * window or calendar period, the burst. A limit made anew with other values under the same name records the latest.
 */
@Singleton
public class CodeLimits {

    private static final Logger LOG = Logger.getLogger(CodeLimits.class);
    /** Names this instance records at most: code that makes a name per call must not fill the memory or Redis. */
    static final int MAX_NAMES = 1024;
    static final Duration KEPT = Duration.ofDays(30);
    private static final long RECORD_AGAIN_NANOS = Duration.ofHours(1).toNanos();

    private final RedisTransport redis;
    private final String key;
    /** When a limit was last written, so that it is not written again on every call. */
    private final InstanceClock clock;
    /** Each name's limit and when this instance last wrote it to Redis. */
    private final Map<String, Recorded> byName = new ConcurrentHashMap<>();

    /** @param source the limit as the code made it: the same object again is the same limit (code keeps constants) */
    private record Recorded(RateLimit source, LimitDefinition limit, long writtenAtNanos) {
    }

    CodeLimits(RedisTransport redis, RateLimitKeys keys, InstanceClock clock) {
        this.clock = clock;
        this.redis = redis;
        this.key = keys.codeLimitsKey();
    }

    /**
     * A call used {@code source}, a limit made in code, decided as {@code limit}: one map read when it was recorded
     * lately, nothing allocated.
     */
    public void used(RateLimit source, LimitDefinition limit) {
        Recorded recorded = byName.get(source.name());
        long now = clock.nanoTime();
        if (recorded != null && now - recorded.writtenAtNanos() < RECORD_AGAIN_NANOS
                && (recorded.source() == source || sameRecord(recorded.limit(), limit))) {
            return;
        }
        if (recorded == null && byName.size() >= MAX_NAMES) {
            return;
        }
        byName.put(source.name(), new Recorded(source, limit, now));
        redis.command(Request.cmd(Command.HSET).arg(key).arg(source.name()).arg(encode(limit)))
                .chain(() -> redis.command(Request.cmd(Command.PEXPIRE).arg(key).arg(KEPT.toMillis())))
                .subscribe().with(ignored -> {
                }, failure -> LOG.debugf("Could not record the limit %s made in code (%s); it is known here only",
                        source.name(), failure.getMessage()));
    }

    /** The limit made in code named {@code name} that a call of this instance or of the fleet used; null when none. */
    public Uni<LimitDefinition> find(String name) {
        Recorded recorded = byName.get(name);
        if (recorded != null) {
            return Uni.createFrom().item(recorded.limit());
        }
        return redis.command(Request.cmd(Command.HGET).arg(key).arg(name))
                .map(reply -> reply == null ? null : decode(name, reply.toString()));
    }

    /** The names of the limits made in code that calls of this instance or of the fleet used. */
    public Uni<Set<String>> names() {
        return redis.command(Request.cmd(Command.HKEYS).arg(key)).map(reply -> {
            Set<String> names = new TreeSet<>(byName.keySet());
            if (reply != null) {
                for (Response name : reply) {
                    names.add(name.toString());
                }
            }
            return names;
        });
    }

    /** The limits this instance's calls used, by name (no Redis call). */
    public Map<String, LimitDefinition> usedHere() {
        Map<String, LimitDefinition> limits = new java.util.TreeMap<>();
        byName.forEach((name, recorded) -> limits.put(name, recorded.limit()));
        return limits;
    }

    /** Whether the two would record the same ({@link #encode}), compared without building either record. */
    private static boolean sameRecord(LimitDefinition a, LimitDefinition b) {
        return a.getAlgorithm() == b.getAlgorithm() && a.getLimit() == b.getLimit()
                && a.getWindowMillis() == b.getWindowMillis() && a.getBurst() == b.getBurst()
                && a.getCalendarPeriod() == b.getCalendarPeriod() && a.getAnchorDay() == b.getAnchorDay()
                && java.util.Objects.equals(a.getTimeZone(), b.getTimeZone());
    }

    /** {@code algorithm limit windowMillis burst period timeZone anchorDay}, {@code -} for no time zone. */
    static String encode(LimitDefinition limit) {
        return limit.getAlgorithm().name() + ' ' + limit.getLimit() + ' ' + limit.getWindowMillis() + ' '
                + limit.getBurst() + ' ' + limit.getCalendarPeriod().name() + ' '
                + (limit.getTimeZone() == null || limit.getTimeZone().isEmpty() ? "-" : limit.getTimeZone()) + ' '
                + limit.getAnchorDay();
    }

    static LimitDefinition decode(String name, String encoded) {
        String[] values = encoded.split(" ");
        CalendarPeriod period = CalendarPeriod.valueOf(values[4]);
        return LimitDefinition.builder(name, Long.parseLong(values[1]), Long.parseLong(values[2]))
                .algorithm(Algorithm.valueOf(values[0])).burst(Long.parseLong(values[3]))
                .calendar(period, values[5].equals("-") ? null : values[5], Integer.parseInt(values[6])).build();
    }
}
