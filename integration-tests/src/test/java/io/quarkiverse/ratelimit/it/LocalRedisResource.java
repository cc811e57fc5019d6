package io.quarkiverse.ratelimit.it;

import java.net.URI;
import java.util.Map;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** A redis-server of the tests' own on a free port (never the machine's 6379), stopped after the tests. */
public class LocalRedisResource implements QuarkusTestResourceLifecycleManager {

    private LocalRedisServer server;

    @Override
    public Map<String, String> start() {
        server = LocalRedisServer.start();
        return Map.of("quarkus.redis.hosts", server.uri());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A connection of the test's own to the Redis the application uses, to look at keys or flush scripts. */
    public static RespConnection connect() {
        URI uri = URI.create(ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class));
        return RespConnection.open(uri.getHost(), uri.getPort(), java.time.Duration.ofSeconds(5));
    }
}
