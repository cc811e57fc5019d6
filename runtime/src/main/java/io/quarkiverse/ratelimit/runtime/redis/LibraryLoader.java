package io.quarkiverse.ratelimit.runtime.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Whether Redis holds the {@link LuaLibrary}, and loading it there: at start-up, and again whenever a node answers that
 * the function is missing (a restart without persistence, {@code FUNCTION FLUSH}, a new node). Until it is loaded,
 * and for good on a Redis without functions (before 7.0), calls run the equivalent scripts ({@code EVALSHA}).
 * <p>
 * {@code FUNCTION LOAD REPLACE}: loading the same code again is harmless, so instances starting together need no
 * coordination; replicas get the library by replication, so a Sentinel failover keeps it.
 * <p>
 * Standalone and Sentinel only: in a cluster the library would have to reach every master, which Quarkus's Redis
 * client offers no way to do (it wraps the cluster client, which Vert.x's {@code RedisCluster} then refuses), and a
 * keyless {@code FUNCTION LOAD} would reach one master. A cluster's calls run as scripts.
 */
final class LibraryLoader {

    private static final Logger LOG = Logger.getLogger(LibraryLoader.class);
    /** A Redis that cannot take the library now (down, busy) is asked again at most this often. */
    private static final long RETRY_NANOS = Duration.ofSeconds(1).toNanos();

    private enum State {
        /** Not loaded yet, or lost: calls use the scripts, and the next call asks for a load. */
        UNKNOWN,
        LOADED,
        /** Redis before 7.0: scripts only. */
        UNSUPPORTED,
        /** A cluster: scripts only. */
        CLUSTER
    }

    private final LuaLibrary library;
    private final Function<Request, Future<Response>> send;
    private final AtomicBoolean loading = new AtomicBoolean();
    private volatile State state;
    private volatile long nextAttemptNanos = System.nanoTime();

    /**
     * @param send sends one command on the decisions' connections
     * @param enabled false in a cluster: calls run as scripts
     */
    LibraryLoader(LuaLibrary library, Function<Request, Future<Response>> send, boolean enabled) {
        this.library = library;
        this.send = send;
        this.state = enabled ? State.UNKNOWN : State.CLUSTER;
    }

    /** Whether calls can use the library's functions ({@code FCALL}) now. */
    boolean loaded() {
        return state == State.LOADED;
    }

    /**
     * Redis answered that a function is missing: calls use the scripts until the library is loaded again, which starts
     * now unless a load is under way (Redis answers, so no need to wait as after a failed load).
     */
    void lost() {
        if (state == State.LOADED) {
            state = State.UNKNOWN;
            LOG.info("Rate limiter: Redis lost the function library " + library.name() + "; loading it again");
        }
        load();
    }

    /** Starts a load unless the library is loaded, unsupported, being loaded, or was tried within the last second. */
    void loadIfUnknown() {
        if (state != State.UNKNOWN || System.nanoTime() - nextAttemptNanos < 0) {
            return;
        }
        load();
    }

    /** Loads the library now (start-up); completes when Redis answered, whatever it answered. */
    Future<Void> load() {
        if (state == State.CLUSTER || !loading.compareAndSet(false, true)) {
            return Future.succeededFuture();
        }
        nextAttemptNanos = System.nanoTime() + RETRY_NANOS;
        Request load = Request.cmd(Command.FUNCTION).arg("LOAD").arg("REPLACE").arg(library.source());
        return send.apply(load).transform(result -> {
            loading.set(false);
            if (result.succeeded()) {
                state = State.LOADED;
            } else if (isUnknownCommand(result.cause())) {
                state = State.UNSUPPORTED;
                LOG.info("Rate limiter: this Redis has no functions (Redis 7 has), so decisions run as scripts"
                        + " (EVALSHA), which cost Redis more CPU per call");
            } else {
                LOG.debugf("Could not load the function library %s into Redis (%s); calls run as scripts until it"
                        + " is loaded", library.name(), result.cause().getMessage());
            }
            return Future.succeededFuture();
        });
    }

    /** What the readiness check and the Dev UI show. */
    String describe() {
        return switch (state) {
            case LOADED -> "loaded: " + library.name();
            case UNKNOWN -> "loading: " + library.name() + " (scripts meanwhile)";
            case UNSUPPORTED -> "none: Redis before 7.0 has no functions (scripts)";
            case CLUSTER -> "none: not loaded into a cluster (scripts)";
        };
    }

    static boolean isFunctionMissing(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("ERR Function not found");
    }

    private static boolean isUnknownCommand(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("ERR unknown command");
    }
}
