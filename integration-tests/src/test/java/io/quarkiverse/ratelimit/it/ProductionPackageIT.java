package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The Dev Service's redis-server binaries are deployment-side only: they must never ship with an application. */
class ProductionPackageIT {

    @Test
    void thePackagedApplicationShipsTheRuntimeAndNoRedisServer() throws IOException {
        Path jar = Path.of(System.getProperty("quarkus-app.jar", "target/quarkus-app/quarkus-run.jar"));
        List<String> libraries;
        try (Stream<Path> files = Files.walk(jar.getParent().resolve("lib"))) {
            libraries = files.map(path -> path.getFileName().toString()).toList();
        }
        assertThat(libraries).contains("io.quarkiverse.ratelimit.quarkus-rate-limit-999-SNAPSHOT.jar");
        assertThat(libraries).noneMatch(name -> name.contains("embedded-redis") || name.contains("local-redis")
                || name.contains("rate-limit-deployment"));
    }
}
