package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The Dev Service's redis-server binaries are deployment-side only: they must never ship with an application. The build
 * writes the scripts as Redis runs them next to the application, to be read and diffed.
 */
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

    @Test
    void theBuildWritesTheAssembledScripts() throws IOException {
        Path scripts = Path.of("target/quarkus-rate-limit/lua");
        // the demo's sliding window counter, decided by a script holding that module only
        String slidingWindow = Files.readString(scripts.resolve("rate_limit-sliding_window_counter.lua"));
        assertThat(slidingWindow).contains("['sliding_window_counter'] = (function()")
                .doesNotContain("['fixed_window']").contains("local function limit_args(ARGV, i)")
                .endsWith("return rate_limit(KEYS, ARGV)\n");
        assertThat(scripts.resolve("refund-sliding_window_counter.lua")).exists();
        assertThat(Files.readString(scripts.resolve("concurrency.lua"))).contains("local function clock(ARGV)")
                .endsWith("return concurrency(KEYS, ARGV)\n");
        // Redis 7: one library with every module and entry
        assertThat(Files.readString(scripts.resolve("library.lua"))).startsWith("#!lua name=quarkus_rate_limit_")
                .contains("['fixed_window'] = (function()", "['gcra'] = (function()")
                .contains("redis.register_function{function_name='rate_limit_",
                        "redis.register_function{function_name='concurrency_")
                // a batch may touch the slots of its whole master
                .containsPattern("function_name='rate_limit_batch_[0-9a-f]+', callback=rate_limit_batch,"
                        + " flags=\\{'allow-cross-slot-keys'}");
    }
}
