package io.quarkiverse.ratelimit.it;

import java.util.Map;

import io.quarkiverse.ratelimit.localredis.LocalRedisCluster;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** Three masters with one replica each, and the application's Redis client in cluster mode. */
public class RedisClusterResource implements QuarkusTestResourceLifecycleManager {

    private LocalRedisCluster cluster;

    @Override
    public Map<String, String> start() {
        cluster = LocalRedisCluster.start(3, true);
        return Map.of(
                "quarkus.redis.hosts", cluster.hosts(),
                "quarkus.redis.client-type", "cluster");
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
