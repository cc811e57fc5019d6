package io.quarkiverse.ratelimit.localredis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds a {@code redis-server} executable: the one on {@code PATH} when there is one, else the Linux / macOS binary
 * shipped inside {@code com.github.codemonstur:embedded-redis}, extracted once per user into the temp directory.
 */
public final class RedisServerBinary {

    /** Overrides the lookup with an explicit path to a redis-server executable. */
    public static final String OVERRIDE_PROPERTY = "rate-limit.redis-server";

    private RedisServerBinary() {
    }

    public static Path locate() {
        String override = System.getProperty(OVERRIDE_PROPERTY, System.getenv("RATE_LIMIT_REDIS_SERVER"));
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        return onPath().orElseGet(RedisServerBinary::extractEmbedded);
    }

    static Optional<Path> onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    static Path extractEmbedded() {
        String resource = embeddedResourceName();
        Path target = Path.of(System.getProperty("java.io.tmpdir"),
                "quarkus-rate-limit-" + System.getProperty("user.name", "user"), resource);
        if (Files.isExecutable(target)) {
            return target;
        }
        try (InputStream in = RedisServerBinary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("No redis-server on PATH and no embedded binary " + resource
                        + " on the classpath (com.github.codemonstur:embedded-redis)");
            }
            Files.createDirectories(target.getParent());
            Path partial = Files.createTempFile(target.getParent(), resource, ".part");
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            if (!partial.toFile().setExecutable(true)) {
                throw new IOException("Cannot make " + partial + " executable");
            }
            // Atomic move: concurrent test JVMs may extract at the same time.
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot extract the embedded redis-server to " + target, e);
        }
    }

    static String embeddedResourceName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm");
        if (os.contains("linux")) {
            if (arm) {
                return "redis-server-6.2.7-linux-arm64";
            }
            return arch.contains("64") ? "redis-server-6.2.6-v5-linux-amd64" : "redis-server-6.2.7-linux-386";
        }
        if (os.contains("mac")) {
            return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        }
        throw new IllegalStateException("No embedded redis-server for " + os + "/" + arch + ": put redis-server on PATH");
    }
}
