package io.quarkiverse.ratelimit.runtime.redis;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

import org.jboss.logging.Logger;

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
 * one reply each. A calling thread always uses the same connection.
 * <p>
 * A connection that fails (closed, reset, its node gone, any error reply but a missing script or function) is dropped, and the
 * next
 * decision opens a new one, which in a cluster or behind Sentinel finds the current masters; the decisions in flight on
 * it fail and are decided by their failure mode, as a failed decision always was. A connection whose queue of
 * unanswered requests is full hands the call to {@code overflow} (the pool). Vert.x futures, not Mutiny: this runs for
 * every decision, and each Mutiny step would capture and restore the caller's context.
 */
final class PipelinedConnections {

    private static final Logger LOG = Logger.getLogger(PipelinedConnections.class);

    private final Redis client;
    private final AtomicReferenceArray<RedisConnection> open;
    private final AtomicReferenceArray<Future<RedisConnection>> opening;

    PipelinedConnections(Redis client, int connections) {
        this.client = client;
        this.open = new AtomicReferenceArray<>(connections);
        this.opening = new AtomicReferenceArray<>(connections);
    }

    Future<Response> send(Request request, Function<Request, Future<Response>> overflow) {
        int slot = (int) (Thread.currentThread().getId() % open.length());
        RedisConnection connection = open.get(slot);
        if (connection != null) {
            return connection.pendingQueueFull() ? overflow.apply(request) : send(slot, connection, request);
        }
        return connect(slot).compose(opened -> send(slot, opened, request));
    }

    private Future<Response> send(int slot, RedisConnection connection, Request request) {
        return connection.send(request).onFailure(failure -> {
            if (!ScriptRunner.isCodeMissing(failure)) {
                drop(slot, connection, failure);
            }
        });
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
        client.connect().onComplete(result -> {
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
        if (open.compareAndSet(slot, connection, null)) {
            LOG.debugf(cause, "Dropping a pipelined Redis connection; the next decision opens another");
            discard(connection);
        }
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
