package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Supplier;

import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;

/**
 * Where each of the {@link PipelinedConnections} lives: a Vert.x event loop (by default one connection on each), and a
 * Redis client of its own that opens it there. The Redis client library binds every connection of a client to the
 * event loop that was current when the client was made, and hands a request written from another event loop over to
 * that one, and its reply back (two wake-ups of a sleeping thread per call). So each connection's client is made on the
 * connection's event loop, with the options Quarkus built the rate limiter's client with ({@link RedisClientOptions}),
 * and a caller on an event loop takes the connection that lives there.
 */
final class ConnectionHomes {

    /** The client Quarkus built: it opens the connections while no options of their own are known. */
    private final Redis shared;
    /** The options a connection's own client is made with; {@code null} while Quarkus has not built its client. */
    private final Supplier<RedisOptions> options;
    private final Vertx vertx;
    /** The event-loop context each connection lives on. */
    private final ContextInternal[] homes;
    /** Each connection's own client, made on its home the first time it opens; only its home touches it. */
    private final Redis[] clients;

    /**
     * @param shared the client Quarkus built, which opens the connections while {@code options} gives none
     * @param options the options of the connections' own clients, or {@code null} while not known
     * @param connections how many connections; empty: one on each event loop
     */
    ConnectionHomes(Vertx vertx, Redis shared, Supplier<RedisOptions> options, OptionalInt connections) {
        this.vertx = vertx;
        this.shared = shared;
        this.options = options;
        VertxInternal internal = (VertxInternal) vertx;
        List<EventLoop> loops = new ArrayList<>();
        internal.getEventLoopGroup().forEach(loop -> loops.add((EventLoop) loop));
        ContextInternal any = internal.createEventLoopContext(); // lends its worker pool and class loader
        this.homes = new ContextInternal[connections.orElse(loops.size())];
        for (int slot = 0; slot < homes.length; slot++) {
            homes[slot] = internal.createEventLoopContext(loops.get(slot % loops.size()), any.workerPool(),
                    any.classLoader());
        }
        this.clients = new Redis[homes.length];
    }

    /** How many connections. */
    int count() {
        return homes.length;
    }

    /**
     * The calling thread's connection: on an event loop, the first that lives there; on any other thread (or an event
     * loop without one, when there are fewer connections than event loops), one by thread.
     */
    int slot() {
        for (int slot = 0; slot < homes.length; slot++) {
            if (homes[slot].nettyEventLoop().inEventLoop()) {
                return slot;
            }
        }
        return (int) (Thread.currentThread().getId() % homes.length);
    }

    /** The home of the first connection: where decisions asked for off the event loop are best sent from. */
    Context first() {
        return homes[0];
    }

    /** Opens a connection for {@code slot} on its home: the connection lives on its home's event loop. */
    Future<RedisConnection> connect(int slot) {
        Promise<RedisConnection> connected = Promise.promise();
        homes[slot].runOnContext(ignored -> clientOf(slot).connect().onComplete(connected));
        return connected.future();
    }

    /** {@code slot}'s own client, made now on its home (the caller's thread) if it has none yet. */
    private Redis clientOf(int slot) {
        Redis client = clients[slot];
        if (client == null) {
            RedisOptions own = options.get();
            if (own == null) {
                return shared;
            }
            client = Redis.createClient(vertx, own);
            clients[slot] = client;
        }
        return client;
    }

    /** Closes the clients made for the connections (at shutdown, once the connections are closed). */
    void close() {
        for (int slot = 0; slot < homes.length; slot++) {
            int closing = slot;
            homes[slot].runOnContext(ignored -> {
                if (clients[closing] != null) {
                    clients[closing].close();
                    clients[closing] = null;
                }
            });
        }
    }
}
