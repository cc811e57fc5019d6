package io.quarkiverse.ratelimit.runtime.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.redis.RateLimitScripts;

/**
 * {@code lua/fleet.lua} on a real Redis: instances announce themselves and hear how many are live; one that leaves is
 * gone at once, one whose announcement is older than the lifetime is gone at the next announcement of any; the key
 * holds a TTL of one lifetime and one member per instance, however often they announce.
 */
class FleetScriptTest {

    static final LocalRedisServer SERVER = LocalRedisServer.start();
    static final RespConnection REDIS = SERVER.connect();
    static final String SCRIPT = new RateLimitScripts().fleet().source();
    static final String LIFETIME_MS = "3000";

    final String key = "rate-limit-" + UUID.randomUUID() + ":{~fleet}";

    @AfterAll
    static void stop() {
        REDIS.close();
        SERVER.close();
    }

    @Test
    void eachInstanceCountsOnceHoweverOftenItAnnouncesAndOneThatLeavesIsGoneAtOnce() {
        assertThat(announce("a")).isEqualTo(1);
        assertThat(announce("b")).isEqualTo(2);
        assertThat(announce("a")).isEqualTo(2);
        assertThat(announce("c")).isEqualTo(3);
        assertThat(leave("b")).isEqualTo(2);
        assertThat(announce("a")).isEqualTo(2);
        assertThat((Long) REDIS.command("ZCARD", key)).isEqualTo(2);
    }

    @Test
    void anInstanceThatStoppedAnnouncingIsGoneOnceItsAnnouncementIsOlderThanTheLifetime() {
        announce("a");
        long redisNowMs = redisTimeMillis();
        REDIS.command("ZADD", key, Long.toString(redisNowMs - 3_500), "died-3.5-s-ago");
        REDIS.command("ZADD", key, Long.toString(redisNowMs - 2_000), "late-by-2-s");
        assertThat(announce("a")).as("a and the one late by less than the lifetime").isEqualTo(2);
        assertThat(REDIS.command("ZSCORE", key, "died-3.5-s-ago")).isNull();
    }

    @Test
    void theKeyExpiresOneLifetimeAfterTheLastAnnouncementAndALastLeaverLeavesNothing() {
        announce("a");
        assertThat((Long) REDIS.command("PTTL", key)).isBetween(1L, 3000L);
        assertThat(leave("a")).isZero();
        assertThat((Long) REDIS.command("EXISTS", key)).isZero();
    }

    private long announce(String instance) {
        return (Long) REDIS.command("EVAL", SCRIPT, "1", key, instance, LIFETIME_MS, "1");
    }

    private long leave(String instance) {
        return (Long) REDIS.command("EVAL", SCRIPT, "1", key, instance, LIFETIME_MS, "0");
    }

    @SuppressWarnings("unchecked")
    private static long redisTimeMillis() {
        List<Object> time = (List<Object>) REDIS.command("TIME");
        return Long.parseLong(time.get(0).toString()) * 1000 + Long.parseLong(time.get(1).toString()) / 1000;
    }
}
