package io.quarkiverse.ratelimit.runtime.redis;

import java.time.Duration;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RedisOperation;
import io.quarkus.redis.client.RedisClientName;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * How the rate limiter talks to Redis: the Quarkus Redis client it was given ({@code redis-client-name}), the
 * connections decisions are pipelined on ({@link PipelinedConnections}, the pool when one is full), and the plain
 * commands beside the scripts (administration, a readiness PING, a lease's release, {@code CLUSTER SLOTS}). Every
 * command travels on the pipelined connections, not through the client's pool: a pooled connection left idle there has
 * no handler of ours, and when Redis dies the client logs its reset as an ERROR ("Unhandled Error"); ours handle it
 * (drop, reconnect on next use).
 */
@Singleton
public class RedisTransport {

    private static final Logger LOG = Logger.getLogger(RedisTransport.class);

    private final Redis redis;
    private final PipelinedConnections pipelined;
    private final InFlightLimit inFlight;
    private final boolean cluster;
    private final RateLimitMetrics metrics;
    /**
     * When Redis last answered, on the instance's clock (the pending decisions' timeout reads it against that clock);
     * long ago until Redis has answered once: it has no credit.
     */
    private volatile long lastReplyNanos;
    /** Made once, not per request: every decision passes here. */
    private final Function<io.vertx.redis.client.Request, Future<io.vertx.redis.client.Response>> overflow = this::pooled;
    private final Handler<io.vertx.redis.client.Response> answered;

    RedisTransport(@Any Instance<Redis> clients, RateLimitBuildConfig config, RateLimitConfig runTimeConfig,
            RateLimitMetrics metrics, Vertx vertx, RedisClientOptions clientOptions, InstanceClock clock) {
        this.lastReplyNanos = clock.nanoTime() - Duration.ofDays(1).toNanos();
        this.answered = ignored -> lastReplyNanos = clock.nanoTime();
        this.metrics = metrics;
        String clientName = RateLimitBuildConfig.redisClient(config);
        this.redis = config.redisClientName()
                .map(name -> clients.select(RedisClientName.Literal.of(name)).get())
                .orElseGet(() -> clients.select(Default.Literal.INSTANCE).get());
        this.cluster = isCluster(clientName);
        this.inFlight = cluster ? clusterInFlightLimit(clientName) : null;
        this.pipelined = new PipelinedConnections(
                new ConnectionHomes(vertx, redis.getDelegate(), clientOptions::forEventLoop,
                        runTimeConfig.pipelinedConnections()),
                cluster, runTimeConfig.durable().replicas(), runTimeConfig.durable().timeout().toMillis());
    }

    /** Whether the named Redis client is a cluster client ({@code client-type=cluster}). */
    public static boolean isCluster(String clientName) {
        return ConfigProvider.getConfig()
                .getOptionalValue(RedisConfig.getPropertyName(clientName, "client-type"), String.class)
                .map("cluster"::equalsIgnoreCase).orElse(false);
    }

    /**
     * In cluster mode, vertx-redis-client before 4.5.27 deadlocks when every pooled connection is held by a cluster
     * connection waiting for a slot refresh, which itself needs a pooled connection (vert-x3/vertx-redis-client#541;
     * Quarkus 3.32 ships 4.5.25). Keeping our decisions below the pool size leaves the refresh a connection.
     */
    private static InFlightLimit clusterInFlightLimit(String clientName) {
        Config config = ConfigProvider.getConfig();
        int poolSize = config.getOptionalValue(RedisConfig.getPropertyName(clientName, "max-pool-size"), Integer.class)
                .orElse(6);
        return new InFlightLimit(Math.max(1, poolSize - 1));
    }

    boolean cluster() {
        return cluster;
    }

    /** The Redis client (a connection of its own for {@link InvalidationChannel}). */
    io.vertx.redis.client.Redis client() {
        return redis.getDelegate();
    }

    /** One request pipelined with the others in flight; the pool when its connection's queue is full. */
    Future<io.vertx.redis.client.Response> send(io.vertx.redis.client.Request request) {
        return pipelined.send(request, overflow).onSuccess(answered);
    }

    /** One request answered once enough replicas acknowledged it (durable decisions). */
    Future<io.vertx.redis.client.Response> sendAcknowledged(io.vertx.redis.client.Request request) {
        return pipelined.sendAcknowledged(request).onSuccess(answered);
    }

    private Future<io.vertx.redis.client.Response> pooled(io.vertx.redis.client.Request request) {
        if (inFlight == null) {
            return redis.getDelegate().send(request);
        }
        return Future.fromCompletionStage(inFlight.run(() -> redis.send(Request.newInstance(request)))
                .map(Response::getDelegate).subscribeAsCompletionStage());
    }

    /** Sends one plain command (administration: not a decision, so not guarded; timed as {@code admin}). */
    public Uni<Response> command(Request request) {
        return metrics.timed(RedisOperation.ADMIN, plain(request));
    }

    /** One plain command, neither guarded nor timed. */
    Uni<Response> plain(Request request) {
        return Uni.createFrom().completionStage(() -> send(request.getDelegate()).toCompletionStage())
                .map(Response::newInstance);
    }

    /** Gives a concurrency lease back. */
    public Uni<Void> removeFromSortedSet(String key, String member) {
        return plain(Request.cmd(Command.ZREM).arg(key).arg(member)).replaceWithVoid();
    }

    /** Whether Redis answers a PING now, on the connections decisions take (neither guarded nor timed). */
    public Uni<Void> ping(Duration timeout) {
        return plain(Request.cmd(Command.PING)).ifNoItem().after(timeout).fail().replaceWithVoid();
    }

    /** {@code CLUSTER SLOTS}, on the decisions' connections (neither guarded nor timed: {@link ClusterNodes} asks). */
    Future<io.vertx.redis.client.Response> clusterSlots() {
        return send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.CLUSTER).arg("SLOTS"));
    }

    /** When Redis last answered on these connections: {@link InstanceClock#nanoTime()}. */
    public long lastReplyNanos() {
        return lastReplyNanos;
    }

    /** Opens the decisions' connections now (at start-up) rather than on the first call. */
    void openAll() {
        pipelined.openAll();
    }

    /**
     * Renews the connections decisions travel on (Redis went silent on them): closed, and the next command opens new
     * ones (in a cluster, replaced in the background). The commands still in flight on them fail, and are decided by
     * their failure mode, as they were about to be.
     */
    public void renewConnections() {
        if (pipelined.renew() > 0) {
            LOG.info("Rate limiter: Redis answered nothing on this instance's connections; renewing them");
        }
    }

    /**
     * The event-loop context from which the decisions asked for off the event loop are sent: one whose connection lives
     * on it.
     */
    io.vertx.core.Context offLoopContext() {
        return pipelined.offLoopContext();
    }

    @PreDestroy
    void close() {
        pipelined.shutdown();
    }
}
