package io.quarkiverse.ratelimit.deployment;

import java.util.Map;
import java.util.logging.Filter;
import java.util.logging.LogRecord;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkus.deployment.IsNormal;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.builditem.Startable;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.deployment.logging.LogCleanupFilterBuildItem;
import io.quarkus.deployment.logging.LoggingSetupBuildItem;
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

    /**
     * Without a container runtime, the probe for one (Testcontainers, on behalf of every container Dev Service) logs an
     * ERROR with the configurations it tried, and the Redis Dev Service a WARN asking for hosts or Docker, before this
     * Dev Service starts a redis-server that makes both moot. Whenever it would take over, they drop to DEBUG, and its
     * own INFO line says what happened. The INFO and WARN lines go through Quarkus's log cleanup filters, which are in
     * place before the probe (the Dev Services that probe wait for {@link LoggingSetupBuildItem}, which waits for
     * them); those filters leave ERRORs alone, so the probe's ERROR is demoted by a filter on its own logger, installed
     * here, before logging is set up.
     */
    @BuildStep(onlyIfNot = IsNormal.class, onlyIf = DevServicesConfig.Enabled.class)
    void quietTheContainerProbe(RateLimitDevServicesConfig devServices, RateLimitBuildConfig config,
            BuildProducer<LogCleanupFilterBuildItem> filters) {
        String client = RateLimitProcessor.clientName(config);
        if (!mayStart(devServices, client)) {
            return;
        }
        filters.produce(new LogCleanupFilterBuildItem(
                "org.testcontainers.dockerclient.DockerMachineClientProviderStrategy", "docker-machine executable"));
        filters.produce(new LogCleanupFilterBuildItem("org.testcontainers.DockerClientFactory",
                "Testcontainers version"));
        filters.produce(new LogCleanupFilterBuildItem("io.quarkus.redis.deployment.client.DevServicesRedisProcessor",
                "Please configure quarkus.redis.hosts for "
                        + (RedisConfig.isDefaultClient(client) ? "default redis client" : client) + " or"));
        demoteToDebug(NO_CONTAINER_RUNTIME_LOGGER, NO_CONTAINER_RUNTIME);
    }

    static final String NO_CONTAINER_RUNTIME_LOGGER = "org.testcontainers.dockerclient.DockerClientProviderStrategy";
    static final String NO_CONTAINER_RUNTIME = "Could not find a valid Docker environment";

    /** Logs the messages of {@code logger} that start with {@code messageStart} at DEBUG, whatever their level. */
    private static void demoteToDebug(String logger, String messageStart) {
        java.util.logging.Logger target = java.util.logging.Logger.getLogger(logger);
        Filter existing = target.getFilter();
        if (existing instanceof DemotedMessage) {
            return; // a restart in dev mode: installed already
        }
        target.setFilter(new DemotedMessage(messageStart, existing));
    }

    private record DemotedMessage(String messageStart, Filter next) implements Filter {

        @Override
        public boolean isLoggable(LogRecord record) {
            String message = record.getMessage();
            if (message != null && message.startsWith(messageStart)) {
                record.setLevel(org.jboss.logmanager.Level.DEBUG);
            }
            return next == null || next.isLoggable(record);
        }
    }

    @BuildStep(onlyIfNot = IsNormal.class, onlyIf = DevServicesConfig.Enabled.class)
    void startLocalRedis(RateLimitDevServicesConfig devServices, RateLimitBuildConfig config,
            RedisBuildTimeConfig redisConfig, DockerStatusBuildItem docker, LoggingSetupBuildItem loggingIsSetUp,
            BuildProducer<DevServicesResultBuildItem> results) {
        String client = RateLimitProcessor.clientName(config);
        String hostsProperty = RedisConfig.getPropertyName(client, "hosts");
        if (!mayStart(devServices, client) || redisContainerDevServiceWillRun(client, redisConfig, docker)) {
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

    /** Whether this Dev Service may stand in for the client: it is enabled and the client has no hosts. */
    private static boolean mayStart(RateLimitDevServicesConfig devServices, String client) {
        return devServices.enabled() && !ConfigUtils.isPropertyNonEmpty(RedisConfig.getPropertyName(client, "hosts"));
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
            LOG.infof("Rate limit Dev Service: no container runtime for the Redis Dev Service, so started %s on %s"
                    + " instead (log: %s)", server.binary(), server.uri(), server.logFile());
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
