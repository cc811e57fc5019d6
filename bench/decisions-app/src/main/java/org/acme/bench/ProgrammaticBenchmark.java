package org.acme.bench;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.redis.client.Redis;

/**
 * {@code GET /bench/run?client=...&inFlight=64&keys=100000&seconds=10}: decisions per second through
 * <ul>
 * <li>{@code extension}: {@code RateLimiter.tryAcquire}, asynchronous, {@code inFlight} at a time, each Uni
 * subscribed with a {@code UniSubscriber};
 * <li>{@code extension-blocking}: {@code tryAcquireAndAwait} from {@code inFlight} threads;
 * <li>{@code lettuce}: Lettuce's async API sending EVALSHA of a minimal sliding-window-counter script, every call in
 * flight pipelined on one connection (the baseline);
 * <li>{@code quarkus-client}: the same script through Quarkus's Redis client (the transport the extension must use),
 * every call in flight pipelined on one connection, with no rate limiter code around it: the most any extension
 * could get from that client; {@code quarkus-client-blocking}: the same, each call awaited by one of {@code inFlight}
 * threads;
 * <li>{@code bucket4j}, {@code redisson}: the libraries a user would pick instead ({@link Peers}), asynchronous,
 * {@code inFlight} at a time.
 * </ul>
 * Every decision admits (the limit is a billion per hour), so every one writes.
 */
@Path("/bench")
public class ProgrammaticBenchmark {

    private static final String[] ARGS = { MinimalSlidingWindow.LIMIT, MinimalSlidingWindow.WINDOW_MS };

    @Inject
    RateLimiter limiter;

    @Inject
    Redis quarkusRedis;

    @ConfigProperty(name = "quarkus.redis.hosts")
    String redisHosts;

    private volatile RedisClient lettuce;
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile Peers peers;

    @GET
    @Path("run")
    public String run(@QueryParam("client") String client, @QueryParam("inFlight") @DefaultValue("64") int inFlight,
            @QueryParam("keys") @DefaultValue("100000") int keys, @QueryParam("seconds") @DefaultValue("10") int seconds,
            @QueryParam("warmup") @DefaultValue("3") int warmup,
            @QueryParam("algorithm") @DefaultValue("SLIDING_WINDOW_COUNTER") Algorithm algorithm)
            throws InterruptedException {
        RateLimit limit = RateLimit.of("bench-" + algorithm.name().toLowerCase(), 1_000_000_000, Duration.ofHours(1))
                .algorithm(algorithm);
        return switch (client) {
            case "extension" -> new Load(tenant -> completion(limiter.tryAcquire(limit, tenant)), keys)
                    .runAsync(inFlight, warmup, seconds);
            case "extension-blocking" -> new Load(
                    tenant -> CompletableFuture.completedFuture(limiter.tryAcquireAndAwait(limit, tenant)), keys)
                    .runBlocking(inFlight, warmup, seconds);
            case "lettuce" -> lettuce(inFlight, keys, warmup, seconds);
            case "quarkus-client" -> quarkusClient(inFlight, keys, warmup, seconds, false);
            case "quarkus-client-blocking" -> quarkusClient(inFlight, keys, warmup, seconds, true);
            case "bucket4j" -> new Load(peers()::bucket4j, keys).runAsync(inFlight, warmup, seconds);
            case "redisson" -> new Load(peers()::redisson, keys).runAsync(inFlight, warmup, seconds);
            default -> throw new IllegalArgumentException("client is extension, extension-blocking, lettuce,"
                    + " quarkus-client, quarkus-client-blocking, bucket4j or redisson");
        };
    }

    /**
     * The decision as a plain {@code CompletableFuture}, as the Lettuce baseline gets one: subscribed with a
     * {@code UniSubscriber}, not {@code subscribeAsCompletionStage()}, whose context-propagating stage costs the
     * caller three context captures per call in a Quarkus application, which would be measured against the extension.
     */
    private static <T> CompletionStage<T> completion(Uni<T> uni) {
        CompletableFuture<T> future = new CompletableFuture<>();
        uni.subscribe().withSubscriber(new UniSubscriber<T>() {
            @Override
            public void onSubscribe(UniSubscription subscription) {
            }

            @Override
            public void onItem(T item) {
                future.complete(item);
            }

            @Override
            public void onFailure(Throwable failure) {
                future.completeExceptionally(failure);
            }
        });
        return future;
    }

    private String lettuce(int inFlight, int keys, int warmup, int seconds) throws InterruptedException {
        if (connection == null) {
            lettuce = RedisClient.create(redisHosts);
            connection = lettuce.connect();
        }
        RedisAsyncCommands<String, String> redis = connection.async();
        String sha = connection.sync().scriptLoad(MinimalSlidingWindow.SCRIPT);
        return new Load(tenant -> redis.evalsha(sha, ScriptOutputType.MULTI,
                new String[] { "{" + tenant + "}:a", "{" + tenant + "}:b" }, ARGS), keys)
                .runAsync(inFlight, warmup, seconds);
    }

    private String quarkusClient(int inFlight, int keys, int warmup, int seconds, boolean blocking)
            throws InterruptedException {
        try (MinimalSlidingWindow.ThroughQuarkusClient transport = new MinimalSlidingWindow.ThroughQuarkusClient(
                quarkusRedis)) {
            Function<String, CompletionStage<?>> decide = transport::decide;
            if (blocking) {
                return new Load(tenant -> CompletableFuture.completedFuture(
                        decide.apply(tenant).toCompletableFuture().join()), keys).runBlocking(inFlight, warmup, seconds);
            }
            return new Load(decide, keys).runAsync(inFlight, warmup, seconds);
        }
    }

    private Peers peers() {
        if (peers == null) {
            peers = new Peers(redisHosts);
        }
        return peers;
    }

    @PreDestroy
    void close() {
        if (peers != null) {
            peers.close();
        }
        if (connection != null) {
            connection.close();
            lettuce.shutdown();
        }
    }
}
