package io.quarkiverse.ratelimit.runtime.redis;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A few long-lived connections on which decisions are pipelined: every decision in flight shares a connection, so
 * Redis and the client read and write them in batches, instead of borrowing a pooled connection for one request and
 * one reply each. A caller on an event loop takes the connection that lives there ({@link ConnectionHomes}).
 * <p>
 * A connection that fails (closed, reset, its node gone, any error reply but a missing script or function) is
 * dropped, and the next decision opens a new one, which behind Sentinel finds the current master; the decisions in
 * flight on it fail and are decided by their failure mode, as a failed decision always was.
 * <p>
 * A cluster connection holds one connection per master, and one master failing must not take the others' decisions
 * down with it: it is replaced in the background instead, and kept until its replacement is open. Opening one needs
 * every node of the slot map, so while a dead master still owns its slots no replacement opens, and the old
 * connection keeps serving the healthy masters (the dead one's decisions fail fast); once a replica has taken the
 * slots, the replacement opens and takes over. (The old connection alone would not heal: the client never replaces a
 * node connection that closed.)
 * <p>
 * A connection whose queue of unanswered requests is full hands the call to {@code overflow} (the pool). Vert.x
 * futures, not Mutiny: this runs for every decision, and each Mutiny step would capture and restore the caller's
 * context.
 * <p>
 * Durable decisions ({@code quarkus.rate-limit.durable.replicas}) go through {@link AcknowledgedDecisions}: sent in
 * groups, each followed by one {@code WAIT}, and answered only once enough replicas acknowledged them.
 */
final class PipelinedConnections {

    private static final Logger LOG = Logger.getLogger(PipelinedConnections.class);
    private static final long REPLACEMENT_INTERVAL_NANOS = 250_000_000L;

    /** Where each connection lives, and the client that opens it there. */
    private final ConnectionHomes homes;
    private final AtomicReferenceArray<RedisConnection> open;
    private final AtomicReferenceArray<Future<RedisConnection>> opening;
    /** Durable decisions' groups and their {@code WAIT}s; {@code null} when decisions are not durable. */
    private final AcknowledgedDecisions acknowledged;
    /** Cluster connections are replaced in the background rather than dropped. */
    private final boolean cluster;
    private final AtomicReferenceArray<RedisConnection> replacing;
    private final long[] lastReplacementNanos;

    /**
     * @param homes where each connection lives (as many connections as it has)
     * @param replicas how many replicas must acknowledge a durable decision ({@link #sendAcknowledged}); 0 when
     *        decisions are not durable
     */
    PipelinedConnections(ConnectionHomes homes, boolean cluster, int replicas, long acknowledgementTimeoutMillis) {
        this.homes = homes;
        int connections = homes.count();
        this.cluster = cluster;
        this.replacing = new AtomicReferenceArray<>(connections);
        this.lastReplacementNanos = new long[connections];
        this.open = new AtomicReferenceArray<>(connections);
        this.opening = new AtomicReferenceArray<>(connections);
        this.acknowledged = replicas == 0 ? null
                : new AcknowledgedDecisions(new AcknowledgedDecisions.Connections() {
                    @Override
                    public Future<RedisConnection> ready(int slot) {
                        RedisConnection connection = open.get(slot);
                        return connection != null ? Future.succeededFuture(connection) : connect(slot);
                    }

                    @Override
                    public Future<Response> send(int slot, RedisConnection connection, Request request) {
                        return PipelinedConnections.this.send(slot, connection, request);
                    }
                }, connections, replicas, acknowledgementTimeoutMillis);
    }

    /**
     * The event-loop context from which the decisions asked for off the event loop (blocking callers) are best sent:
     * the first connection's home, where its requests need no hand-off.
     */
    Context offLoopContext() {
        return homes.first();
    }

    Future<Response> send(Request request, Function<Request, Future<Response>> overflow) {
        int slot = homes.slot();
        RedisConnection connection = open.get(slot);
        if (connection != null) {
            return connection.pendingQueueFull() ? overflow.apply(request) : send(slot, connection, request);
        }
        return connect(slot).compose(opened -> send(slot, opened, request));
    }

    /**
     * Sends a durable decision: its reply once {@code replicas} replicas acknowledged its write, or a
     * {@link ReplicasNotAcknowledgedException} when fewer did within the timeout (the write stays on the master).
     */
    Future<Response> sendAcknowledged(Request request) {
        return acknowledged.send(homes.slot(), request);
    }

    private Future<Response> send(int slot, RedisConnection connection, Request request) {
        return connection.send(request).onFailure(failure -> {
            if (!RedisErrors.isCodeMissing(failure)) {
                drop(slot, connection, failure);
            }
        });
    }

    /**
     * Opens every connection now (at start-up), rather than when a thread first needs one: a cluster connection needs
     * every master to open, and one opened later, while a master is down or silent, would fail or hang.
     */
    void openAll() {
        for (int slot = 0; slot < open.length(); slot++) {
            if (open.get(slot) == null) {
                int opening = slot;
                connect(slot).onFailure(failure -> LOG.debugf(failure, "Pipelined connection %d not opened yet",
                        opening));
            }
        }
    }

    /** The connection being opened for {@code slot}, shared by every call that needs it meanwhile. */
    private Future<RedisConnection> connect(int slot) {
        Future<RedisConnection> pending = opening.get(slot);
        if (pending != null) {
            return pending;
        }
        Promise<RedisConnection> promise = Promise.promise();
        Future<RedisConnection> connecting = promise.future();
        if (!opening.compareAndSet(slot, null, connecting)) {
            return connect(slot);
        }
        homes.connect(slot).onComplete(result -> {
            if (result.succeeded()) {
                RedisConnection connection = result.result();
                connection.exceptionHandler(failure -> drop(slot, connection, failure));
                connection.endHandler(ignored -> drop(slot, connection, null));
                open.set(slot, connection);
            }
            opening.compareAndSet(slot, connecting, null);
            promise.handle(result);
        });
        return connecting;
    }

    private void drop(int slot, RedisConnection connection, Throwable cause) {
        if (cluster) {
            replace(slot, connection, cause);
        } else if (open.compareAndSet(slot, connection, null)) {
            LOG.debugf(cause, "Dropping a pipelined Redis connection; the next decision opens another");
            discard(connection);
        }
    }

    /**
     * Opens a cluster connection to take over from {@code failing}, at most every 250 ms per slot; {@code failing}
     * serves until then. A replacement that cannot open (a master of the slot map is down) is tried again on the next
     * failure.
     */
    private void replace(int slot, RedisConnection failing, Throwable cause) {
        long now = System.nanoTime();
        if (open.get(slot) != failing || now - lastReplacementNanos[slot] < REPLACEMENT_INTERVAL_NANOS
                || !replacing.compareAndSet(slot, null, failing)) {
            return;
        }
        lastReplacementNanos[slot] = now;
        LOG.debugf(cause, "Replacing a pipelined Redis cluster connection");
        homes.connect(slot).onComplete(result -> {
            replacing.set(slot, null);
            if (result.failed()) {
                LOG.debugf(result.cause(), "No replacement for a failing cluster connection yet; it keeps serving");
                return;
            }
            RedisConnection replacement = result.result();
            replacement.exceptionHandler(failure -> drop(slot, replacement, failure));
            replacement.endHandler(ignored -> drop(slot, replacement, null));
            if (open.compareAndSet(slot, failing, replacement)) {
                discard(failing);
            } else {
                discard(replacement); // closed or replaced meanwhile
            }
        });
    }

    /**
     * Renews the connections after Redis went silent on them (the connections may be what hangs: a client that locked
     * up, a half-open TCP connection): closed, so the next decision opens new ones; in a cluster replaced in the
     * background instead, since a new cluster connection needs every master and one silent master must not stop the
     * others' decisions. How many were open.
     */
    int renew() {
        if (!cluster) {
            return close();
        }
        int renewed = 0;
        for (int slot = 0; slot < open.length(); slot++) {
            RedisConnection connection = open.get(slot);
            if (connection != null) {
                lastReplacementNanos[slot] = 0; // now, whenever the last one was
                replace(slot, connection, null);
                renewed++;
            }
        }
        return renewed;
    }

    /**
     * Closes every open connection (at shutdown, or when Redis went silent on them, which may be the connections'
     * fault: a client that locked up, a half-open TCP connection): how many were open.
     */
    int close() {
        int closed = 0;
        for (int slot = 0; slot < open.length(); slot++) {
            RedisConnection connection = open.getAndSet(slot, null);
            if (connection != null) {
                discard(connection);
                closed++;
            }
        }
        return closed;
    }

    /** Closes every connection and the clients made for them (at shutdown). */
    void shutdown() {
        close();
        homes.close();
    }

    /**
     * Closes a connection for good. A standalone or Sentinel client's connection comes from its pool, and closing it
     * only hands it back, alive, to be handed out again, hanging if it hung. A {@code SELECT} marks it as changed
     * (the client calls that tainted), and the pool closes a tainted connection instead of taking it back; the
     * {@code SELECT} itself is never answered or never matters. (A cluster connection refuses {@code SELECT} and
     * hands its nodes' connections back; the client offers no way to close those.)
     */
    private static void discard(RedisConnection connection) {
        // a request of its own: a Request is a mutable builder, and discarding is rare
        connection.send(Request.cmd(Command.SELECT).arg(0)).onFailure(ignored -> {
            // closed below, before or after Redis answers
        });
        connection.close();
    }
}
