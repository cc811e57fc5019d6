package io.quarkiverse.ratelimit.it;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.quarkiverse.ratelimit.localredis.LocalRedisCluster;
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

    private final Supplier<AutoCloseable> store;
    private final Function<AutoCloseable, List<AppInstance>> start;
    private AutoCloseable redis;
    private List<AppInstance> instances;

    private Fleet(Supplier<AutoCloseable> store, Function<AutoCloseable, List<AppInstance>> start) {
        this.store = store;
        this.start = start;
    }

    /** @param start starts the instances on the fleet's Redis, and waits until they serve */
    static Fleet of(Function<LocalRedisServer, List<AppInstance>> start) {
        return new Fleet(LocalRedisServer::start, redis -> start.apply((LocalRedisServer) redis));
    }

    /** The instances on a Redis Cluster of three masters (the instances set its hosts themselves). */
    static Fleet onCluster(Function<LocalRedisCluster, List<AppInstance>> start) {
        return new Fleet(() -> LocalRedisCluster.start(3, false), cluster -> start.apply((LocalRedisCluster) cluster));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = store.get();
        instances = start.apply(redis);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (instances != null) {
            instances.forEach(AppInstance::stop);
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** The {@code index}-th instance. */
    AppInstance instance(int index) {
        return instances.get(index);
    }

    List<AppInstance> instances() {
        return instances;
    }

    /** The fleet's Redis server (not for a fleet on a cluster). */
    LocalRedisServer redis() {
        return (LocalRedisServer) redis;
    }
}
