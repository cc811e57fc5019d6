package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
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

    private final RedisTransport transport;
    private final RateLimitScripts scripts = new RateLimitScripts();
    /**
     * What {@code EVALSHA} may send, preloaded by {@code SCRIPT LOAD} without the library: the scripts of every
     * application, and those of each algorithm set of its limits. Counted from these lists without assembling them.
     */
    private final List<Supplier<LuaScript>> scriptsOfEveryApplication = List.of(scripts::concurrency, scripts::reset);
    private final List<IntFunction<LuaScript>> scriptsOfEachAlgorithmSet = List.of(scripts::decide, scripts::refund);
    private final LibraryLoader library;
    /** In a cluster, where the function library is loaded; {@code null} otherwise. */
    private final EveryMaster everyMaster;
    private final LongAdder noScriptRecoveries = new LongAdder();
    private final AtomicInteger scriptsPreloaded = new AtomicInteger();
    private final Promise<Throwable> startupLoad = Promise.promise();
    private volatile int scriptsUsed;
    private final RateLimitMetrics metrics;
    private final boolean durable;
    /** {@code null} when decisions go alone ({@code max-decisions-per-call=1}, durable decisions). */
    private final DecisionBatches batches;

    ScriptRunner(RedisTransport transport, RateLimitConfig config, RateLimitMetrics metrics, Vertx vertx,
            RedisClientOptions clientOptions, RedisTopology topology) {
        this.transport = transport;
        this.metrics = metrics;
        this.durable = config.durable().replicas() > 0;
        this.everyMaster = transport.cluster() ? new EveryMaster(vertx, clientOptions, transport::send) : null;
        this.library = new LibraryLoader(scripts.library(),
                everyMaster != null ? everyMaster::send : request -> transport.send(request.get()));
        this.batches = durable || config.maxDecisionsPerCall() <= 1 ? null
                : new DecisionBatches(config.maxDecisionsPerCall(),
                        scripts.batchFunction(), this::send, transport::send,
                        topology, transport.offLoopContext());
    }

    @PreDestroy
    void close() {
        if (everyMaster != null) {
            everyMaster.close();
        }
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

    /**
     * Runs a decision ({@code rate_limit.lua}) as {@link #send} does, or, when Redis holds the library, in a batch with
     * the others its event loop asks for in the same turn ({@link DecisionBatches}).
     */
    public Future<io.vertx.redis.client.Response> decide(LuaScript script, List<String> keys, List<String> args) {
        if (batches == null || !library.loaded()) {
            return send(script, keys, args);
        }
        return batches.decide(script, keys, args);
    }

    private Future<io.vertx.redis.client.Response> send(LuaScript script, List<String> keys, List<String> args,
            boolean acknowledged) {
        if (script.function() == null || !library.loaded()) {
            library.loadIfUnknown();
            return evaluate(script, keys, args, acknowledged);
        }
        return transmit(request(io.vertx.redis.client.Command.FCALL, script.function(), keys, args), acknowledged)
                .recover(failure -> {
                    if (!RedisErrors.isFunctionMissing(failure)) {
                        return Future.failedFuture(failure);
                    }
                    // the node lost its functions, most likely its scripts too (a restart): the script itself,
                    // once, rather than an EVALSHA that would probably miss as well
                    recovered();
                    library.lost();
                    return eval(script, keys, args, acknowledged);
                });
    }

    /**
     * {@code EVALSHA}, and one {@code EVAL} when Redis answers {@code NOSCRIPT}; {@code EVAL} while the script's
     * SHA-1 is not known yet (a call right after start-up), which is computed meanwhile off the event loops.
     */
    private Future<io.vertx.redis.client.Response> evaluate(LuaScript script, List<String> keys, List<String> args,
            boolean acknowledged) {
        String sha1 = script.sha1IfKnown();
        if (sha1 == null) {
            script.digestElsewhere();
            return eval(script, keys, args, acknowledged);
        }
        return transmit(request(io.vertx.redis.client.Command.EVALSHA, sha1, keys, args), acknowledged)
                .recover(failure -> {
                    if (!RedisErrors.isCodeMissing(failure)) {
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
        return acknowledged ? transport.sendAcknowledged(request) : transport.send(request);
    }

    private void recovered() {
        noScriptRecoveries.increment();
        metrics.scriptReloaded();
    }

    /**
     * Runs a script off the decision path (refunds, resets), never durable: a refund lost in a failover only errs on
     * the safe side.
     */
    public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
        return Uni.createFrom().completionStage(() -> write(script, keys, args).toCompletionStage())
                .map(Response::newInstance);
    }

    /** {@link #run}, as a Vert.x future: for a caller that guards it as a decision is guarded. */
    public Future<io.vertx.redis.client.Response> write(LuaScript script, List<String> keys, List<String> args) {
        return send(script, keys, args, false);
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
        transport.openAll();
        Set<Integer> algorithmSets = limits.algorithmSets();
        int used = scriptsOfEveryApplication.size() + scriptsOfEachAlgorithmSet.size() * algorithmSets.size();
        scriptsUsed = used;
        // Neither assembled nor digested here: with the library no call sends a script, and a call before it is loaded
        // sends EVAL while its script's digest is computed off the event loops (evaluate); SCRIPT LOAD answers them.
        library.load().onComplete(loaded -> {
            Throwable failure = loaded.result();
            if (library.loaded()) {
                scriptsPreloaded.set(used);
            } else if (failure == null || !RedisErrors.isUnreachable(failure)) {
                loadScripts(scriptsOf(algorithmSets));
                failure = null; // Redis answers: the scripts say for themselves whether they loaded
            }
            // else the scripts would fail alike: they are sent on first use, as after a restart
            startupLoad.complete(failure);
        });
    }

    /**
     * Completes once the start-up load is done: with why Redis could not be reached then (one line at start-up says
     * so, see {@code startup/RedisAtStartup}), or {@code null} when it answered.
     */
    public Future<Throwable> unreachableAtStartup() {
        return startupLoad.future();
    }

    /** The scripts of the given algorithm sets' limits, as {@code EVALSHA} sends them: {@link #scriptsUsed} of them. */
    private List<LuaScript> scriptsOf(Set<Integer> algorithmSets) {
        List<LuaScript> used = new ArrayList<>();
        scriptsOfEveryApplication.forEach(script -> used.add(script.get()));
        for (int algorithmSet : algorithmSets) {
            scriptsOfEachAlgorithmSet.forEach(script -> used.add(script.apply(algorithmSet)));
        }
        return used;
    }

    private void loadScripts(List<LuaScript> used) {
        for (LuaScript script : used) {
            transport.plain(Request.cmd(Command.SCRIPT).arg("LOAD").arg(script.source()))
                    .subscribe().with(
                            sha -> {
                                scriptsPreloaded.incrementAndGet();
                                script.cachedAs(sha.toString());
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
}
