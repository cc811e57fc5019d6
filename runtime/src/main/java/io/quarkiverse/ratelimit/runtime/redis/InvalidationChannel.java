package io.quarkiverse.ratelimit.runtime.redis;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * How every instance hears of a change in Redis that can turn a refusal into an admission, so that no local shortcut
 * outlives the truth in Redis. One Redis pub/sub channel ({@link RateLimitKeys#invalidationChannel()}):
 * <ul>
 * <li>the scripts that refund or reset publish the keys they changed, in the same atomic step
 * ({@code lua/refund.lua}, {@code lua/reset.lua});</li>
 * <li>a change of run-time limits, blocked tenants or switches publishes {@code *} once stored.</li>
 * </ul>
 * Each instance subscribes on a connection of its own and tells its {@link InvalidationListener}s. Whether it still hears is
 * checked by a {@code PING} on that connection every quarter of {@code refusal-cache.unconfirmed-lifetime}: a reply
 * comes after every message Redis published before it, so while replies come, nothing was missed. {@link #live()} is
 * false from the moment a reply is overdue by that lifetime, or the connection is lost, until it is subscribed again;
 * and then every listener hears {@link InvalidationListener#everythingChanged()}, since messages may have been missed
 * meanwhile.
 * <p>
 * In a cluster, {@code PUBLISH} reaches every node, so a subscription on any node hears every change.
 */
@Singleton
public class InvalidationChannel {

    /** The message of a change that concerns every key. */
    public static final String EVERYTHING = InvalidationMessages.EVERYTHING;

    private static final Logger LOG = Logger.getLogger(InvalidationChannel.class);

    private final RedisTransport redis;
    /** The limits' Redis client, for a connection of this channel's own. */
    private final Redis client;
    /** When replies came, and the heartbeat's timer. */
    private final InstanceClock clock;
    private final String channel;
    private final long lifetimeNanos;
    private final long heartbeatMillis;
    private final List<InvalidationListener> listeners = new CopyOnWriteArrayList<>();
    /** The current attempt to subscribe; a newer one supersedes an attempt that hangs (a black-holed connect). */
    private final AtomicLong attempts = new AtomicLong();
    /** When the current attempt started ({@link InstanceClock#nanoTime()}), while one is under way. */
    private volatile Long attemptStartedNanos;
    private volatile RedisConnection connection;
    /** When a reply last confirmed the subscription ({@link InstanceClock#nanoTime()}), while {@link #connection} is set. */
    private volatile long confirmedNanos;
    private volatile long timer = -1;
    private volatile boolean stopped;

    InvalidationChannel(RedisTransport redis, RateLimitKeys keys, RateLimitConfig config, InstanceClock clock) {
        this.redis = redis;
        this.client = redis.client();
        this.clock = clock;
        this.channel = keys.invalidationChannel();
        this.lifetimeNanos = config.refusalCache().unconfirmedLifetime().toNanos();
        this.heartbeatMillis = Math.max(1, config.refusalCache().unconfirmedLifetime().toMillis() / 4);
    }

    /** The channel the scripts publish on. */
    public String channel() {
        return channel;
    }

    public void listen(InvalidationListener listener) {
        listeners.add(listener);
    }

    /** Whether this instance hears every invalidation now (subscribed, and confirmed within the lifetime). */
    public boolean live() {
        return connection != null && clock.nanoTime() - confirmedNanos <= lifetimeNanos;
    }

    /**
     * Tells this instance's listeners, now, that anything may have changed (the test clock moved: every remembered
     * refusal is stale), without waiting for a message to come back.
     */
    public void everythingChangedHere() {
        everythingChanged();
    }

    /** Tells every instance (this one too) that anything may have changed. */
    public Uni<Void> announceEverything() {
        return redis.command(io.vertx.mutiny.redis.client.Request.cmd(io.vertx.mutiny.redis.client.Command.PUBLISH)
                .arg(channel).arg(EVERYTHING)).replaceWithVoid();
    }

    /** Runs after the start-up checks ({@code StartupChecks}): nothing to subscribe for an application that stops. */
    void start(@Observes StartupEvent event) {
        subscribe();
        nextHeartbeat();
    }

    private void nextHeartbeat() {
        timer = clock.setTimer(heartbeatMillis, () -> {
            if (stopped) {
                return;
            }
            try {
                heartbeat();
            } finally {
                nextHeartbeat(); // whatever this beat met, the channel keeps being checked
            }
        });
    }

    private void heartbeat() {
        RedisConnection subscribed = connection;
        if (subscribed == null) {
            subscribe();
            return;
        }
        long sent = clock.nanoTime();
        if (sent - confirmedNanos > 4 * lifetimeNanos) {
            // silent for long (a half-open connection, a paused Redis): subscribe anew rather than wait on it
            lost(subscribed, null);
            subscribe();
            return;
        }
        subscribed.send(Request.cmd(Command.PING)).onComplete(reply -> {
            if (reply.succeeded()) {
                confirmed(sent);
            } else {
                lost(subscribed, reply.cause());
            }
        });
    }

    /** A reply to a request sent at {@code sentNanos}: every message published before it has been heard. */
    private void confirmed(long sentNanos) {
        if (sentNanos - confirmedNanos > 0) {
            confirmedNanos = sentNanos;
        }
    }

    private synchronized void subscribe() {
        Long started = attemptStartedNanos;
        if (stopped || started != null && clock.nanoTime() - started < 4 * lifetimeNanos) {
            return; // under way, and not hanging yet
        }
        long attempt = attempts.incrementAndGet();
        attemptStartedNanos = clock.nanoTime();
        client.connect().onComplete(connected -> {
            if (connected.failed()) {
                attemptEnded(attempt);
                LOG.debugf(connected.cause(), "Could not subscribe to %s yet; refusals are not cached meanwhile", channel);
                return;
            }
            RedisConnection opened = connected.result();
            if (attempt != attempts.get() || stopped) {
                opened.close(); // superseded by a newer attempt, or stopped meanwhile
                return;
            }
            opened.handler(this::message);
            opened.exceptionHandler(failure -> lost(opened, failure));
            opened.endHandler(ignored -> ended(opened));
            long sent = clock.nanoTime();
            opened.send(Request.cmd(Command.SUBSCRIBE).arg(channel)).onComplete(subscribed -> {
                if (!attemptEnded(attempt)) {
                    lost(opened, null); // superseded while subscribing
                    return;
                }
                if (subscribed.failed()) {
                    lost(opened, subscribed.cause());
                    return;
                }
                confirmedNanos = sent;
                connection = opened;
                // whatever was published while this instance was not subscribed is unknown
                everythingChanged();
            });
        });
    }

    /** Whether {@code attempt} is still the current one; it is over either way. */
    private synchronized boolean attemptEnded(long attempt) {
        if (attempt != attempts.get()) {
            return false;
        }
        attemptStartedNanos = null;
        return true;
    }

    /** The connection failed or went silent: no longer trusted, and closed. */
    private void lost(RedisConnection lost, Throwable cause) {
        ended(lost);
        if (stopped) {
            return; // closed by the shutdown already
        }
        LOG.debugf(cause, "Lost the subscription to %s; refusals are not answered locally until it is back", channel);
        try {
            lost.close();
        } catch (RuntimeException e) {
            // a cluster connection whose node connections the pool took back already (vertx-redis-client 4.5)
            LOG.debugf(e, "Closing the lost subscription to %s failed", channel);
        }
    }

    /** The connection ended (closed by Redis, or by this instance): nothing is heard on it any more. */
    private void ended(RedisConnection ended) {
        if (connection == ended) {
            connection = null;
        }
    }

    /** A published message: {@code [message, channel, payload]} (a RESP2 array or a RESP3 push). */
    private void message(Response message) {
        // a reply that found no request waiting (a PONG after a reconnect) is not a message
        if (message == null || message.type() != ResponseType.MULTI && message.type() != ResponseType.PUSH
                || message.size() < 3 || !"message".equalsIgnoreCase(message.get(0).toString())) {
            return;
        }
        InvalidationMessages.tell(message.get(2).toString(), listeners);
    }

    private void everythingChanged() {
        for (InvalidationListener listener : listeners) {
            listener.everythingChanged();
        }
    }

    /** At shutdown, before Vert.x and the Redis client close; at the latest when the container stops (a failed start). */
    void stop(@Observes ShutdownEvent event) {
        stop();
    }

    @PreDestroy
    void stop() {
        stopped = true;
        if (timer >= 0) {
            clock.cancelTimer(timer);
            timer = -1;
        }
        RedisConnection subscribed = connection;
        connection = null;
        if (subscribed != null) {
            subscribed.close();
        }
    }
}
