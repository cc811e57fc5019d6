package io.quarkiverse.ratelimit.it;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/**
 * The production shape for one test class: packaged instances of the application (separate JVMs) on a Redis of their
 * own, started before the class's tests and stopped after them, whatever failed.
 *
 * <pre>
 * &#64;RegisterExtension
 * static final Fleet fleet = Fleet.of(AppInstance::startTwo);
 * </pre>
 */
final class Fleet implements BeforeAllCallback, AfterAllCallback {

    private final Function<LocalRedisServer, List<AppInstance>> start;
    private LocalRedisServer redis;
    private List<AppInstance> instances;

    private Fleet(Function<LocalRedisServer, List<AppInstance>> start) {
        this.start = start;
    }

    /** @param start starts the instances on the fleet's Redis, and waits until they serve */
    static Fleet of(Function<LocalRedisServer, List<AppInstance>> start) {
        return new Fleet(start);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = LocalRedisServer.start();
        instances = start.apply(redis);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        AppInstance.stopAll(instances, redis);
    }

    /** The {@code index}-th instance. */
    AppInstance instance(int index) {
        return instances.get(index);
    }

    List<AppInstance> instances() {
        return instances;
    }

    LocalRedisServer redis() {
        return redis;
    }
}
