package io.quarkiverse.ratelimit.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkiverse.ratelimit.runtime.redis.ScriptArguments;
import io.quarkiverse.ratelimit.runtime.redis.ScriptClock;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The limiter's time in a {@code @QuarkusTest}, and a clean slate between tests: a bean of test mode only (an
 * application built for production has none, and its scripts always decide by Redis {@code TIME}).
 * <p>
 * {@link #advance} moves the time every limit decides by forward, so a test of "5 an hour" takes milliseconds instead
 * of an hour; until a test advances it, the limits decide by Redis {@code TIME} as in production. {@link #reset}
 * deletes every limit's state (counters, leases, pauses, learned and run-time limits, switches) and brings the time
 * back to now.
 *
 * <pre>
 * &#64;Inject
 * RateLimitTestClock clock;
 *
 * &#64;BeforeEach
 * void cleanSlate() {
 *     clock.reset();
 * }
 *
 * &#64;Test
 * void fiveAnHour() {
 *     // five admitted, the sixth refused ...
 *     clock.advance(Duration.ofHours(1));
 *     // ... admitted again
 * }
 * </pre>
 *
 * Keys are removed with {@code SCAN} and {@code UNLINK} on one Redis (a test's redis-server or Dev Services); not on a
 * Redis Cluster.
 */
@Singleton
public class RateLimitTestClock implements ScriptClock {

    private static final int SCAN_COUNT = 1000;

    private final RedisTransport redis;
    private final InvalidationChannel invalidations;
    private final String keyPattern;
    /** How far ahead of now the limits' time is, in microseconds; 0: Redis TIME. */
    private volatile long offsetMicros;

    RateLimitTestClock(RedisTransport redis, InvalidationChannel invalidations, RateLimitConfig config) {
        this.redis = redis;
        this.invalidations = invalidations;
        this.keyPattern = config.keyPrefix().replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + ":*";
    }

    @Override
    public String now() {
        long offset = offsetMicros;
        return offset == 0 ? ScriptArguments.REDIS_CLOCK
                : Long.toString(System.currentTimeMillis() * 1000 + offset);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime() + offsetMicros * 1000;
    }

    /**
     * Moves the limits' time forward by {@code duration}: windows end, buckets refill, waits and leases (concurrency
     * leases, and the time a reservation can be settled in) run out as if that much time had passed. The refusals this instance
     * remembers are forgotten.
     */
    public synchronized void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("The limiter's time only moves forward, not by " + duration);
        }
        offsetMicros += duration.toNanos() / 1000;
        invalidations.everythingChangedHere();
    }

    /** How far ahead of now the limits' time is. */
    public Duration offset() {
        return Duration.ofNanos(offsetMicros * 1000);
    }

    /**
     * Deletes the state of every limit (whatever the key prefix holds) and brings the limits' time back to now: the next
     * test starts afresh. Blocks until done (never on an event loop); {@link #resetAsync()} does not.
     */
    public void reset() {
        resetAsync().await().atMost(Duration.ofSeconds(30));
    }

    /** {@link #reset()}, as a {@code Uni}. */
    public Uni<Void> resetAsync() {
        return deleteFrom("0").invoke(() -> {
            offsetMicros = 0;
            invalidations.everythingChangedHere();
        }).chain(invalidations::announceEverything);
    }

    private Uni<Void> deleteFrom(String cursor) {
        return redis.command(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(keyPattern).arg("COUNT")
                .arg(SCAN_COUNT)).chain(page -> {
                    String next = page.get(0).toString();
                    Response keys = page.get(1);
                    Uni<Void> deleted = Uni.createFrom().voidItem();
                    if (keys.size() > 0) {
                        List<String> names = new ArrayList<>(keys.size());
                        keys.forEach(key -> names.add(key.toString()));
                        Request unlink = Request.cmd(Command.UNLINK);
                        names.forEach(unlink::arg);
                        deleted = redis.command(unlink).replaceWithVoid();
                    }
                    return next.equals("0") ? deleted : deleted.chain(() -> deleteFrom(next));
                });
    }
}
