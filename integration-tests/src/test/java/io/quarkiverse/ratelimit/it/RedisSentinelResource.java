package io.quarkiverse.ratelimit.it;

import java.util.Map;

import io.quarkiverse.ratelimit.localredis.LocalRedisSentinel;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** A master, a replica and three Sentinels; the application's Redis client in sentinel mode. */
public class RedisSentinelResource implements QuarkusTestResourceLifecycleManager {

    private LocalRedisSentinel sentinel;

    @Override
    public Map<String, String> start() {
        sentinel = LocalRedisSentinel.start();
        return Map.of(
                "quarkus.redis.hosts", sentinel.hosts(),
                "quarkus.redis.client-type", "sentinel",
                "quarkus.redis.master-name", LocalRedisSentinel.MASTER_NAME,
                "quarkus.redis.role", "master",
                "quarkus.rate-limit.circuit-breaker.open-duration", "1s");
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(sentinel,
                new TestInjector.AnnotatedAndMatchesType(InjectRedisSentinel.class, LocalRedisSentinel.class));
    }

    @Override
    public void stop() {
        if (sentinel != null) {
            sentinel.close();
        }
    }
}
