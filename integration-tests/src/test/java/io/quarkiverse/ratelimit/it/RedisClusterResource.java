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
                // the headroom over the gateway's 45 a second covers how late a busy 2-core machine fires a waiting
                // call's timer, as in CarrierQuotaIT
                "carrier-stub.per-second", "60");
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
