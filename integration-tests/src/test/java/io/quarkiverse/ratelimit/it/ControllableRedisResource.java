package io.quarkiverse.ratelimit.it;

import java.util.Map;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A redis-server for one test class that breaks it on purpose: the test gets the process ({@link InjectRedisServer}).
 * The circuit breaker's open period is shortened so that recovery is quick to observe.
 */
public class ControllableRedisResource implements QuarkusTestResourceLifecycleManager {

    static final String OPEN_DURATION = "1s";

    private LocalRedisServer server;

    @Override
    public Map<String, String> start() {
        server = LocalRedisServer.start();
        return Map.of(
                "quarkus.redis.hosts", server.uri(),
                "quarkus.rate-limit.circuit-breaker.open-duration", OPEN_DURATION);
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(server,
                new TestInjector.AnnotatedAndMatchesType(InjectRedisServer.class, LocalRedisServer.class));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
        }
    }
}
