package org.acme.bench;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.RedisClient;

/**
 * The libraries a user would pick instead, on the same Redis and the same load, each used as its documentation shows:
 * <ul>
 * <li>Bucket4j on Redis through Lettuce ({@code bucket4j_jdk17-lettuce}): a token bucket per key, its state read and
 * written back by compare-and-swap, asynchronous;</li>
 * <li>Redisson's {@code RRateLimiter}: a rate per key set once ({@code trySetRate}), then {@code tryAcquireAsync}.</li>
 * </ul>
 * Both with the benchmark's limit: a billion per hour, so every decision admits and writes. Benchmark-only
 * dependencies: the extension uses neither.
 */
final class Peers implements AutoCloseable {

    private static final long LIMIT = 1_000_000_000L;

    private final RedisClient lettuce;
    private final AsyncProxyManager<byte[]> buckets;
    private final BucketConfiguration bucket = BucketConfiguration.builder()
            .addLimit(limit -> limit.capacity(LIMIT).refillGreedy(LIMIT, Duration.ofHours(1))).build();
    private final RedissonClient redisson;
    private final Set<String> ratesSet = ConcurrentHashMap.newKeySet();

    Peers(String redisUri) {
        this.lettuce = RedisClient.create(redisUri);
        this.buckets = Bucket4jLettuce.casBasedBuilder(lettuce)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                        Duration.ofMinutes(10)))
                .build().asAsync();
        Config config = new Config();
        config.useSingleServer().setAddress(redisUri).setConnectionPoolSize(64).setConnectionMinimumIdleSize(8);
        this.redisson = Redisson.create(config);
    }

    CompletionStage<Boolean> bucket4j(String tenant) {
        return buckets.builder().build(("bucket4j:" + tenant).getBytes(), () -> CompletableFuture.completedFuture(bucket))
                .tryConsume(1);
    }

    CompletionStage<Boolean> redisson(String tenant) {
        RRateLimiter limiter = redisson.getRateLimiter("redisson:{" + tenant + "}");
        if (ratesSet.add(tenant)) {
            return limiter.trySetRateAsync(RateType.OVERALL, LIMIT, Duration.ofHours(1))
                    .thenCompose(ignored -> limiter.tryAcquireAsync(1));
        }
        return limiter.tryAcquireAsync(1);
    }

    @Override
    public void close() {
        redisson.shutdown();
        lettuce.shutdown();
    }
}
