package io.quarkiverse.ratelimit.runtime.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;

/**
 * The options Quarkus builds the rate limiter's Redis client with (its credentials, TLS, protocol), seen as every
 * {@link RedisOptionsCustomizer} sees them, and held after every customizer changed them: what a connection of the
 * rate limiter's own to one node of a cluster needs ({@link EveryMaster}). It changes nothing.
 */
@Singleton
public class RedisClientOptions implements RedisOptionsCustomizer {

    private final String clientName;
    private volatile RedisOptions options;

    @Inject
    RedisClientOptions(RateLimitBuildConfig config) {
        this(RateLimitBuildConfig.redisClient(config));
    }

    /** @param clientName the name of the Redis client the rate limiter uses ({@code <default>} for the default one) */
    RedisClientOptions(String clientName) {
        this.clientName = clientName;
    }

    @Override
    public void customize(String name, RedisOptions options) {
        if (clientName.equals(name)) {
            this.options = options;
        }
    }

    /**
     * Options for a client of the rate limiter's own that opens one decisions' connection on its event loop
     * ({@link ConnectionHomes}), like the client Quarkus built (of the same type, nodes, credentials and TLS): a copy.
     * {@code null} until Quarkus built the client, and behind Sentinel (or for a replication client): such a client
     * keeps the master's address it last heard of, and clients of their own would each hear of a failover on their
     * own, some sending decisions to the old master while others found the new one; there the client Quarkus built
     * opens every connection.
     */
    RedisOptions forEventLoop() {
        RedisOptions client = options;
        if (client == null || client.getType() == RedisClientType.SENTINEL
                || client.getType() == RedisClientType.REPLICATION) {
            return null;
        }
        return new RedisOptions(client);
    }

    /**
     * Options for one connection to the node {@code host:port} alone, with the client's credentials and TLS: the
     * scheme and user information of its first endpoint, that node's address. {@code null} until Quarkus built the
     * client.
     */
    RedisOptions forNode(String host, int port) {
        RedisOptions client = options;
        if (client == null) {
            return null;
        }
        URI first = URI.create(client.getEndpoint());
        String endpoint;
        try {
            endpoint = new URI(first.getScheme(), first.getUserInfo(), host, port, null, null, null).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("No endpoint for node " + host + ":" + port, e);
        }
        return new RedisOptions(client).setType(RedisClientType.STANDALONE).setEndpoints(List.of(endpoint))
                .setMaxPoolSize(1).setMaxPoolWaiting(16);
    }
}
