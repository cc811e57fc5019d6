package io.quarkiverse.ratelimit.it;

import java.util.Map;

import io.quarkiverse.ratelimit.localredis.LocalRedisCluster;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Three masters with one replica each, and the application's Redis client in cluster mode, given every master as a
 * seed, or only the first with the argument {@code first-master-only=true}; the carrier stub allows 60 calls a second.
 */
public class RedisClusterResource implements QuarkusTestResourceLifecycleManager {

    private LocalRedisCluster cluster;
    private boolean firstMasterOnly;

    @Override
    public void init(Map<String, String> initArgs) {
        firstMasterOnly = Boolean.parseBoolean(initArgs.getOrDefault("first-master-only", "false"));
    }

    @Override
    public Map<String, String> start() {
        cluster = LocalRedisCluster.start(3, true);
        return Map.of(
                "quarkus.redis.hosts", firstMasterOnly ? cluster.masters().get(0).uri() : cluster.hosts(),
                "quarkus.redis.client-type", "cluster",
                // RedisClusterTest counts the Redis calls of one turn's decisions: a limit whose calls are all made
                // in Redis, never from slices
                "quarkus.rate-limit.leases.excluded", "cluster-batch",
                // the carrier's 50 a second, as in the docs: the gateway's 48 never reach it late (CarrierQuotaIT)
                "carrier-stub.per-second", "50");
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(cluster,
                new TestInjector.AnnotatedAndMatchesType(InjectRedisCluster.class, LocalRedisCluster.class));
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
