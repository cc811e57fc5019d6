package io.quarkiverse.ratelimit.deployment;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/**
 * A redis-server of its own for a {@code QuarkusUnitTest} that breaks Redis on purpose. Such a test class is loaded
 * twice (by JUnit, which configures the application, and by Quarkus, which runs the test methods), so a static
 * {@code LocalRedisServer} would start twice and the test would kill the wrong one. The server is started once per name
 * and shared through the system properties with JDK types only.
 */
public final class TestRedis {

    private final Map<String, Object> shared;

    private TestRedis(Map<String, Object> shared) {
        this.shared = shared;
    }

    public static TestRedis named(String name) {
        return named(name, LocalRedisServer::start);
    }

    /** A Redis 6.2, which has no functions (the binary shipped in embedded-redis). */
    public static TestRedis redis6(String name) {
        return named(name, LocalRedisServer::startRedis6);
    }

    /** A replica of {@code master} ({@code --replicaof}). */
    public static TestRedis replicaOf(String name, TestRedis master) {
        java.net.URI uri = java.net.URI.create(master.uri());
        return named(name, () -> LocalRedisServer.start("--replicaof", uri.getHost(), String.valueOf(uri.getPort())));
    }

    @SuppressWarnings("unchecked")
    private static synchronized TestRedis named(String name, Supplier<LocalRedisServer> start) {
        String key = TestRedis.class.getName() + "." + name;
        Map<String, Object> shared = (Map<String, Object>) System.getProperties().get(key);
        if (shared == null) {
            LocalRedisServer server = start.get();
            shared = Map.of(
                    "uri", server.uri(),
                    "alive", (Supplier<Boolean>) server::isAlive,
                    "kill", (Runnable) server::kill,
                    "restart", (Runnable) server::restart,
                    "pause", (Runnable) server::pause,
                    "resume", (Runnable) server::resume,
                    "close", (Runnable) () -> {
                        server.close();
                        System.getProperties().remove(key);
                    },
                    "command", (Function<String[], Object>) server::command);
            System.getProperties().put(key, shared);
        }
        return new TestRedis(shared);
    }

    /** For {@code quarkus.redis.hosts}. */
    public String uri() {
        return (String) shared.get("uri");
    }

    public boolean isAlive() {
        return ((Supplier<Boolean>) shared.get("alive")).get();
    }

    /** SIGKILL. */
    public void kill() {
        run("kill");
    }

    /** SIGSTOP: connections stay open, nothing is answered. */
    public void pause() {
        run("pause");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        run("resume");
    }

    /** The same port again, empty. */
    public void restart() {
        run("restart");
    }

    public void close() {
        run("close");
    }

    @SuppressWarnings("unchecked")
    public Object command(String... args) {
        return ((Function<String[], Object>) shared.get("command")).apply(args);
    }

    private void run(String control) {
        ((Runnable) shared.get(control)).run();
    }
}
