package io.quarkiverse.ratelimit.runtime.redis;

import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;

/**
 * In a cluster, which master owns each hash slot ({@code CLUSTER SLOTS}, asked every second and soon after a decision
 * failed), so that the breakers can tell one failing master from a failing Redis. Outside a cluster, and until the
 * first answer, every key belongs to {@link #UNKNOWN}.
 */
@Singleton
public class ClusterNodes implements RedisTopology {

    private static final Logger LOG = Logger.getLogger(ClusterNodes.class);
    private static final long REFRESH_MILLIS = 1000;
    private static final long SOONEST_NANOS = 200_000_000L;

    private final RedisTransport scripts;
    private final Vertx vertx;
    private final boolean cluster;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final long timer;
    private volatile long lastRefreshNanos;
    /** The owner ("host:port") of each slot, and the set of them; {@code null} until known. */
    private volatile Topology topology;

    private record Topology(String[] owners, Set<String> masters) {
    }

    ClusterNodes(RedisTransport scripts, Vertx vertx, RateLimitBuildConfig config) {
        this.scripts = scripts;
        this.vertx = vertx;
        this.cluster = RedisTransport.isCluster(RateLimitBuildConfig.redisClient(config));
        this.timer = cluster ? vertx.setPeriodic(0, REFRESH_MILLIS, ignored -> refresh()) : -1;
    }

    @Override
    public boolean cluster() {
        return cluster;
    }

    /** The master that owns {@code key}'s slot, as last heard: {@link #UNKNOWN} outside a cluster. */
    @Override
    public String nodeOf(String key) {
        Topology known = topology;
        if (known == null) {
            return UNKNOWN;
        }
        String owner = known.owners()[HashSlot.of(key)];
        return owner == null ? UNKNOWN : owner;
    }

    /**
     * Whether {@code node} decides for some key now: outside a cluster, only {@link #UNKNOWN}; in a cluster, a master
     * that owns slots (and {@link #UNKNOWN} until the owners are known).
     */
    @Override
    public boolean decides(String node) {
        Topology known = topology;
        if (!cluster || known == null) {
            return UNKNOWN.equals(node);
        }
        return known.masters().contains(node);
    }

    /** Asks for the slots again now (a decision failed: a master may have been replaced), at most every 200 ms. */
    public void refreshSoon() {
        if (cluster && System.nanoTime() - lastRefreshNanos > SOONEST_NANOS) {
            refresh();
        }
    }

    private void refresh() {
        if (!refreshing.compareAndSet(false, true)) {
            return;
        }
        lastRefreshNanos = System.nanoTime();
        scripts.clusterSlots().onComplete(reply -> {
            refreshing.set(false);
            if (reply.succeeded()) {
                String[] owners = owners(reply.result());
                topology = new Topology(owners, Arrays.stream(owners).filter(Objects::nonNull)
                        .collect(Collectors.toUnmodifiableSet()));
            } else {
                LOG.debugf(reply.cause(), "CLUSTER SLOTS failed; the slots' owners stay as last known");
            }
        });
    }

    /** {@code CLUSTER SLOTS}: [first slot, last slot, [master host, master port, id...], replicas...] per range. */
    static String[] owners(Response slots) {
        String[] owners = new String[HashSlot.SLOTS];
        for (Response range : slots) {
            Response master = range.get(2);
            String node = master.get(0).toString() + ':' + master.get(1).toInteger();
            for (int slot = range.get(0).toInteger(); slot <= range.get(1).toInteger(); slot++) {
                owners[slot] = node;
            }
        }
        return owners;
    }

    @PreDestroy
    void stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }
}
