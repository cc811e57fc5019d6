package io.quarkiverse.ratelimit.runtime.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.config.RateLimitFixedConfig;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RedisOperation;
import io.quarkus.redis.client.RedisClientName;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Runs the rate-limit scripts on Redis. On Redis 7: the {@link LuaLibrary} loaded once ({@code FUNCTION LOAD}) and an
 * {@code FCALL} per call; a node that answers that the function is missing (a restart without persistence,
 * {@code FUNCTION FLUSH}) gets the call as a script and the library again. On Redis 6 (and until the library is
 * loaded): {@code SCRIPT LOAD} at start-up, {@code EVALSHA} per call, and one {@code EVAL} when Redis answers
 * {@code NOSCRIPT} (after {@code SCRIPT FLUSH}, a restart or a failover to a node that never saw the script), which
 * caches the script again. A call that found its code missing ran nothing, so running it again counts it once.
 * <p>
 * With {@code quarkus.rate-limit.durable.replicas}, a decision (a limit's or a concurrency lease's) is answered only
 * once replicas acknowledged its write ({@link PipelinedConnections#sendAcknowledged}); refunds and administration
 * are not: losing them in a failover errs on the safe side.
 */
@Singleton
public class ScriptRunner {

    private static final Logger LOG = Logger.getLogger(ScriptRunner.class);

    private final Redis redis;
    private final PipelinedConnections pipelined;
    private final InFlightLimit inFlight;
    private final RateLimitScripts scripts;
    private final LibraryLoader library;
    private final LongAdder noScriptRecoveries = new LongAdder();
    private final AtomicInteger scriptsPreloaded = new AtomicInteger();
    private volatile int scriptsUsed;
    private final RateLimitMetrics metrics;
    private final boolean durable;

    ScriptRunner(@Any Instance<Redis> clients, RateLimitFixedConfig config, RateLimitConfig runTimeConfig,
            RateLimitMetrics metrics) {
        this.metrics = metrics;
        String clientName = RateLimitFixedConfig.redisClient(config);
        this.redis = config.redisClientName()
                .map(name -> clients.select(RedisClientName.Literal.of(name)).get())
                .orElseGet(() -> clients.select(Default.Literal.INSTANCE).get());
        boolean cluster = isCluster(clientName);
        this.inFlight = cluster ? clusterInFlightLimit(clientName) : null;
        this.durable = runTimeConfig.durable().replicas() > 0;
        this.pipelined = new PipelinedConnections(redis.getDelegate(), runTimeConfig.pipelinedConnections(), cluster,
                runTimeConfig.durable().replicas(), runTimeConfig.durable().timeout().toMillis());
        this.scripts = new RateLimitScripts();
        this.library = new LibraryLoader(scripts.library(), request -> pipelined.send(request, this::pooled), !cluster);
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

    /** Long ago: until Redis has answered once, it has no credit. */
    private volatile long lastReplyNanos = System.nanoTime() - Duration.ofDays(1).toNanos();

    /** The Redis client the limits use (its own connections for {@link InvalidationChannel}). */
    Redis client() {
        return redis;
    }

    public RateLimitScripts scripts() {
        return scripts;
    }

    /**
     * Runs a decision's {@code script} with the given keys and arguments, pipelined with the other calls in flight: its
     * library function when Redis holds the library, else the script itself; durable when so configured. A Vert.x
     * future: this is every decision's path, kept free of Mutiny steps.
     */
    public Future<io.vertx.redis.client.Response> send(LuaScript script, List<String> keys, List<String> args) {
        return send(script, keys, args, durable);
    }

    private Future<io.vertx.redis.client.Response> send(LuaScript script, List<String> keys, List<String> args,
            boolean acknowledged) {
        if (script.function() == null || !library.loaded()) {
            library.loadIfUnknown();
            return evaluate(script, keys, args, acknowledged).onSuccess(ignored -> answered());
        }
        return transmit(request(io.vertx.redis.client.Command.FCALL, script.function(), keys, args), acknowledged)
                .recover(failure -> {
                    if (!LibraryLoader.isFunctionMissing(failure)) {
                        return Future.failedFuture(failure);
                    }
                    // the node lost its functions, most likely its scripts too (a restart): the script itself,
                    // once, rather than an EVALSHA that would probably miss as well
                    recovered();
                    library.lost();
                    return eval(script, keys, args, acknowledged);
                })
                .onSuccess(ignored -> answered());
    }

    /** {@code EVALSHA}, and one {@code EVAL} when Redis answers {@code NOSCRIPT}. */
    private Future<io.vertx.redis.client.Response> evaluate(LuaScript script, List<String> keys, List<String> args,
            boolean acknowledged) {
        return transmit(request(io.vertx.redis.client.Command.EVALSHA, script.sha1(), keys, args), acknowledged)
                .recover(failure -> {
                    if (!isCodeMissing(failure)) {
                        return Future.failedFuture(failure);
                    }
                    recovered();
                    return eval(script, keys, args, acknowledged);
                });
    }

    /** The script itself ({@code EVAL}), which Redis also caches for the next {@code EVALSHA}. */
    private Future<io.vertx.redis.client.Response> eval(LuaScript script, List<String> keys, List<String> args,
            boolean acknowledged) {
        return transmit(request(io.vertx.redis.client.Command.EVAL, script.source(), keys, args), acknowledged);
    }

    private Future<io.vertx.redis.client.Response> transmit(io.vertx.redis.client.Request request,
            boolean acknowledged) {
        return acknowledged ? pipelined.sendAcknowledged(request) : pipelined.send(request, this::pooled);
    }

    private void recovered() {
        noScriptRecoveries.increment();
        metrics.scriptReloaded();
    }

    /**
     * Runs a script off the decision path (refunds), never durable: a refund lost in a failover only errs on the safe
     * side.
     */
    public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
        return Uni.createFrom().completionStage(() -> send(script, keys, args, false).toCompletionStage())
                .map(Response::newInstance);
    }

    /** A request that finds its pipelined connection's queue full goes through the pool. */
    private Future<io.vertx.redis.client.Response> pooled(io.vertx.redis.client.Request request) {
        if (inFlight == null) {
            return redis.getDelegate().send(request);
        }
        return Future.fromCompletionStage(inFlight.run(() -> redis.send(Request.newInstance(request)))
                .map(Response::getDelegate).subscribeAsCompletionStage());
    }

    /** When Redis last answered a script (or the start-up preload): {@link System#nanoTime()}. */
    public long lastReplyNanos() {
        return lastReplyNanos;
    }

    private void answered() {
        lastReplyNanos = System.nanoTime();
    }

    public Uni<Void> removeFromSortedSet(String key, String member) {
        return pipelined(Request.cmd(Command.ZREM).arg(key).arg(member)).replaceWithVoid();
    }

    /** Sends one plain command (administration: not a decision, so not guarded; timed as {@code admin}). */
    public Uni<Response> send(Request request) {
        return metrics.timed(RedisOperation.ADMIN, pipelined(request));
    }

    /**
     * One command on the pipelined connections, like the decisions. Not through the client's pool: a pooled connection
     * left idle there has no handler of ours, and when Redis dies the client logs its reset as an ERROR ("Unhandled
     * Error"), which the chaos soak counts; our connections handle it (drop, reconnect on next use).
     */
    private Uni<Response> pipelined(Request request) {
        return Uni.createFrom()
                .completionStage(() -> pipelined.send(request.getDelegate(), this::pooled).toCompletionStage())
                .map(Response::newInstance);
    }

    /** {@code CLUSTER SLOTS}, on the decisions' connections (neither guarded nor timed: {@link ClusterNodes} asks). */
    Future<io.vertx.redis.client.Response> clusterSlots() {
        return pipelined.send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.CLUSTER).arg("SLOTS"),
                this::pooled);
    }

    /** Deletes keys (an administrative reset). */
    public Uni<Void> delete(List<String> keys) {
        Request delete = Request.cmd(Command.DEL);
        keys.forEach(delete::arg);
        return send(delete).replaceWithVoid();
    }

    /** Whether Redis answers a PING now, on the connections decisions take (neither guarded nor timed). */
    public Uni<Void> ping(Duration timeout) {
        return pipelined(Request.cmd(Command.PING)).ifNoItem().after(timeout).fail().replaceWithVoid();
    }

    /** How many scripts the application's limits use, and how many of them Redis took at start-up. */
    public int scriptsUsed() {
        return scriptsUsed;
    }

    public int scriptsPreloaded() {
        return scriptsPreloaded.get();
    }

    /** The function library's state, as the readiness check and the Dev UI show it. */
    public String functionLibrary() {
        return library.describe();
    }

    /** How often a NOSCRIPT or missing-function reply was recovered since start-up. */
    public long noScriptRecoveries() {
        return noScriptRecoveries.sum();
    }

    /**
     * Opens the decisions' connections and loads the function library, or on Redis 6 the scripts the application's
     * limits use; a Redis that is down now is not fatal, since calls connect and load the library later or recover from
     * NOSCRIPT.
     */
    void preload(@Observes StartupEvent event, EffectiveLimits limits) {
        pipelined.openAll();
        List<LuaScript> used = new ArrayList<>();
        used.add(scripts.concurrency());
        used.add(scripts.reset());
        for (int algorithmSet : limits.algorithmSets()) {
            used.add(scripts.decide(algorithmSet));
            used.add(scripts.refund(algorithmSet));
        }
        scriptsUsed = used.size();
        library.load().onComplete(ignored -> {
            if (library.loaded()) {
                answered();
                scriptsPreloaded.set(used.size());
            } else {
                loadScripts(used);
            }
        });
    }

    private void loadScripts(List<LuaScript> used) {
        for (LuaScript script : used) {
            pipelined(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()))
                    .subscribe().with(
                            sha -> {
                                answered();
                                scriptsPreloaded.incrementAndGet();
                                if (!script.sha1().equals(sha.toString())) {
                                    LOG.warnf("Redis cached %s as %s, expected %s", script.name(), sha, script.sha1());
                                }
                            },
                            failure -> LOG.warnf("Could not preload %s into Redis (%s); it will be sent on first use",
                                    script.name(), failure.getMessage()));
        }
    }

    private static io.vertx.redis.client.Request request(io.vertx.redis.client.Command command, String scriptOrSha,
            List<String> keys, List<String> args) {
        io.vertx.redis.client.Request request = io.vertx.redis.client.Request.cmd(command).arg(scriptOrSha)
                .arg(keys.size());
        for (String key : keys) {
            request.arg(key);
        }
        for (String arg : args) {
            request.arg(arg);
        }
        return request;
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

    @PreDestroy
    void close() {
        pipelined.close();
    }

    /** Whether Redis refused a call because it lacks the call's code (a script or function), running nothing. */
    static boolean isCodeMissing(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT") || LibraryLoader.isFunctionMissing(failure);
    }
}
