package io.quarkiverse.ratelimit.deployment;

import java.util.Map;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.runtime.config.RateLimitFixedConfig;
import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.builditem.Startable;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.redis.deployment.client.RedisBuildTimeConfig;
import io.quarkus.redis.deployment.client.RedisClientBuildTimeConfig;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.configuration.ConfigUtils;

/**
 * Dev and test mode without Docker: when the rate limiter's Redis client has no hosts and the Redis container Dev
 * Service will not start, run a local {@code redis-server} process and point the client at it.
 */
class LocalRedisDevServiceProcessor {

    private static final Logger LOG = Logger.getLogger(LocalRedisDevServiceProcessor.class);

    @BuildStep(onlyIfNot = IsNormal.class, onlyIf = DevServicesConfig.Enabled.class)
    void startLocalRedis(RateLimitDevServicesConfig devServices, RateLimitFixedConfig config,
            RedisBuildTimeConfig redisConfig, DockerStatusBuildItem docker,
            BuildProducer<DevServicesResultBuildItem> results) {
        String client = RateLimitProcessor.clientName(config);
        String hostsProperty = RedisConfig.getPropertyName(client, "hosts");
        if (!devServices.enabled() || ConfigUtils.isPropertyNonEmpty(hostsProperty)
                || redisContainerDevServiceWillRun(client, redisConfig, docker)) {
            return;
        }
        results.produce(DevServicesResultBuildItem.owned()
                .feature(RateLimitProcessor.FEATURE)
                .serviceName("rate-limit-local-redis")
                .serviceConfig(client)
                .description("redis-server process for " + hostsProperty)
                .startable(LocalRedisStartable::new)
                .configProvider(Map.of(hostsProperty, LocalRedisStartable::getConnectionInfo))
                .build());
    }

    private static boolean redisContainerDevServiceWillRun(String client, RedisBuildTimeConfig redisConfig,
            DockerStatusBuildItem docker) {
        RedisClientBuildTimeConfig clientConfig = redisConfig.clients().get(client);
        boolean enabled = clientConfig == null || clientConfig.devservices().enabled();
        return enabled && docker.isContainerRuntimeAvailable();
    }

    static final class LocalRedisStartable implements Startable {

        private LocalRedisServer server;

        @Override
        public void start() {
            server = LocalRedisServer.start();
            LOG.infof("Rate limit Dev Service: started %s on %s (log: %s)", server.binary(), server.uri(),
                    server.logFile());
        }

        @Override
        public String getConnectionInfo() {
            return server.uri();
        }

        @Override
        public String getContainerId() {
            return null;
        }

        @Override
        public void close() {
            if (server != null) {
                server.close();
            }
        }
    }
}
