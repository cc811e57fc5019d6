package io.quarkiverse.ratelimit.runtime.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/**
 * Whether Redis holds the {@link LuaLibrary}, and loading it there: at start-up, and again whenever a node answers that
 * the function is missing (a restart without persistence, {@code FUNCTION FLUSH}, a new node). Until it is loaded,
 * and for good on a Redis without functions (before 7.0), calls run the equivalent scripts ({@code EVALSHA}).
 * <p>
 * {@code FUNCTION LOAD REPLACE}: loading the same code again is harmless, so instances starting together need no
 * coordination; replicas get the library by replication, so a Sentinel failover keeps it. In a cluster the library is
 * loaded into every master ({@link EveryMaster}); a master that appears later (a resharding onto a new node) answers
 * that the function is missing, and the library is loaded into every master again.
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
        UNSUPPORTED
    }

    private final LuaLibrary library;
    private final Function<Supplier<Request>, Future<?>> load;
    private final AtomicBoolean loading = new AtomicBoolean();
    private volatile State state;
    private volatile long nextAttemptNanos = System.nanoTime();

    /**
     * @param load sends the request it is given to Redis: to the decisions' connections, or in a cluster to every
     *        master
     */
    LibraryLoader(LuaLibrary library, Function<Supplier<Request>, Future<?>> load) {
        this.library = library;
        this.load = load;
        this.state = State.UNKNOWN;
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

    /**
     * Loads the library now (start-up); completes when Redis answered, whatever it answered: with why it was not loaded
     * (Redis unreachable, an error reply, no functions before Redis 7), or {@code null}.
     */
    Future<Throwable> load() {
        if (!loading.compareAndSet(false, true)) {
            return Future.succeededFuture();
        }
        nextAttemptNanos = System.nanoTime() + RETRY_NANOS;
        return load.apply(() -> Request.cmd(Command.FUNCTION).arg("LOAD").arg("REPLACE").arg(library.source()))
                .transform(result -> {
                    loading.set(false);
                    if (result.succeeded()) {
                        state = State.LOADED;
                    } else if (RedisErrors.isUnknownCommand(result.cause())) {
                        state = State.UNSUPPORTED;
                        LOG.info("Rate limiter: this Redis has no functions (Redis 7 has), so decisions run as scripts"
                                + " (EVALSHA), which cost Redis more CPU per call");
                    } else {
                        LOG.debugf("Could not load the function library %s into Redis (%s); calls run as scripts until it"
                                + " is loaded", library.name(), result.cause().getMessage());
                    }
                    return Future.succeededFuture(result.cause());
                });
    }

    /** What the readiness check and the Dev UI show. */
    String describe() {
        return switch (state) {
            case LOADED -> "loaded: " + library.name();
            case UNKNOWN -> "loading: " + library.name() + " (scripts meanwhile)";
            case UNSUPPORTED -> "none: Redis before 7.0 has no functions (scripts)";
        };
    }
}
