package io.quarkiverse.ratelimit.localredis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} process on a free loopback port, owned by this JVM: stopped by {@link #close()} and, at the
 * latest, when the JVM exits. Persistence is off, so nothing outlives the process.
 */
public final class LocalRedisServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final int START_ATTEMPTS = 3;

    private final Path binary;
    private final String sentinelConfig;
    private final List<String> extraArgs;
    private final int port;
    private final Path logFile;
    private Process process;
    private final Thread shutdownHook = new Thread(this::destroyNow, "local-redis-shutdown");

    private LocalRedisServer(Path binary, int port, List<String> extraArgs, Path logFile, String sentinelConfig) {
        this.binary = binary;
        this.sentinelConfig = sentinelConfig;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
        this.logFile = logFile;
    }

    /** Starts a standalone Redis on a free port. */
    public static LocalRedisServer start(String... extraArgs) {
        return launchNew(null, extraArgs);
    }

    /**
     * Starts a standalone Redis 6.2 (the binary shipped in embedded-redis) on a free port: a Redis without functions,
     * for code that must also run on Redis 6.
     */
    public static LocalRedisServer startRedis6(String... extraArgs) {
        return launchNew(RedisServerBinary.extractEmbedded(), null, extraArgs);
    }

    /** Starts a Sentinel on a free port with these configuration lines (it rewrites its own config file). */
    public static LocalRedisServer startSentinel(String config) {
        return launchNew(config);
    }

    private static LocalRedisServer launchNew(String sentinelConfig, String... extraArgs) {
        return launchNew(RedisServerBinary.locate(), sentinelConfig, extraArgs);
    }

    private static LocalRedisServer launchNew(Path binary, String sentinelConfig, String... extraArgs) {
        RuntimeException last = null;
        // A free port can be taken by someone else between probing and binding: try again on another one.
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            LocalRedisServer server = new LocalRedisServer(binary, FreePorts.next(), List.of(extraArgs), newLogFile(),
                    sentinelConfig);
            try {
                server.launch();
                return server;
            } catch (RuntimeException e) {
                server.close();
                last = e;
            }
        }
        throw last;
    }

    public int port() {
        return port;
    }

    public String host() {
        return "127.0.0.1";
    }

    /** The URI for {@code quarkus.redis.hosts}. */
    public String uri() {
        return "redis://" + host() + ":" + port;
    }

    public Path binary() {
        return binary;
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Sends one command on a fresh connection and returns the decoded reply (see {@link RespConnection}). */
    public Object command(String... args) {
        try (RespConnection connection = connect()) {
            return connection.command(args);
        }
    }

    public RespConnection connect() {
        return RespConnection.open(host(), port, Duration.ofSeconds(5));
    }

    /** Starts the same server again on the same port, e.g. after {@link #kill()}; the data is gone. */
    public void restart() {
        destroyNow();
        launch();
    }

    /** SIGKILL: the process dies without closing its connections gracefully. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitForExit();
        }
    }

    /** SIGSTOP: the process keeps its connections open but answers nothing, like a stalled server. */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        destroyNow();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException ignored) {
            // JVM already shutting down, or hook never registered
        }
    }

    private void launch() {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if (sentinelConfig != null) {
            command.add(writeSentinelConfig().toString());
            command.add("--sentinel");
        }
        command.addAll(List.of("--port", Integer.toString(port), "--bind", host(), "--daemonize", "no",
                "--protected-mode", "no"));
        if (sentinelConfig == null) {
            command.addAll(List.of("--save", "", "--appendonly", "no"));
        }
        command.addAll(extraArgs);
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .directory(logFile.getParent().toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalArgumentException alreadyRegistered) {
            // restart(): the hook is still registered
        }
        awaitReady();
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + " on port " + port
                        + "; see " + logFile);
            }
            try (RespConnection connection = RespConnection.open(host(), port, Duration.ofMillis(500))) {
                if ("PONG".equals(connection.command("PING"))) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            try {
                Thread.sleep(20); // polling the port of a process we just started: nothing to await on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("redis-server did not answer PING on port " + port + " within " + START_TIMEOUT
                + "; see " + logFile);
    }

    private void destroyNow() {
        if (process != null && process.isAlive()) {
            try {
                resume(); // a stopped process does not die of SIGKILL until it is continued on some systems
            } catch (RuntimeException ignored) {
                // best effort
            }
            process.destroyForcibly();
            waitForExit();
        }
    }

    private void waitForExit() {
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Path writeSentinelConfig() {
        Path file = logFile.getParent().resolve("sentinel.conf");
        try {
            if (!Files.exists(file)) {
                Files.writeString(file, sentinelConfig + "\n");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path newLogFile() {
        try {
            Path dir = Files.createTempDirectory("local-redis-");
            dir.toFile().deleteOnExit();
            return dir.resolve("redis-server.log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
