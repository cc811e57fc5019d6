package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import io.quarkiverse.ratelimit.localredis.FreePorts;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/** One instance of the packaged application in its own JVM, on a free port, using {@code redis}. */
record AppInstance(Process process, URI uri, Path log) {

    /** @param properties extra {@code -D} system properties, {@code name=value} */
    static AppInstance start(LocalRedisServer redis, String... properties) {
        return start(redis.uri(), properties);
    }

    /** @param properties extra {@code -D} system properties, {@code name=value} */
    static AppInstance start(String redisUri, String... properties) {
        Path jar = Path.of(System.getProperty("quarkus-app.jar", "target/quarkus-app/quarkus-run.jar"));
        assertThat(jar).exists();
        int port = FreePorts.next();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.redis.hosts=" + redisUri));
        for (String property : properties) {
            command.add("-D" + property);
        }
        command.addAll(List.of("-jar", jar.toString()));
        try {
            Path log = Files.createTempFile("rate-limit-instance-" + port + "-", ".log");
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new AppInstance(process, URI.create("http://127.0.0.1:" + port), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Two instances on {@code redis}, ready to serve. */
    static List<AppInstance> startTwo(LocalRedisServer redis, String... properties) {
        List<AppInstance> instances = List.of(start(redis, properties), start(redis, properties));
        instances.forEach(AppInstance::awaitReady);
        return instances;
    }

    /** Two instances on {@code redis} with an operator ({@code ops} / {@code ops}, role rate-limit-admin), ready. */
    static List<AppInstance> startTwoWithOperator(LocalRedisServer redis) {
        return startTwo(redis, "quarkus.security.users.embedded.users.ops=ops",
                "quarkus.security.users.embedded.roles.ops=rate-limit-admin");
    }

    /** Stops what a test class started (either may be {@code null} when start-up failed). */
    static void stopAll(List<AppInstance> instances, LocalRedisServer redis) {
        if (instances != null) {
            instances.forEach(AppInstance::stop);
        }
        if (redis != null) {
            redis.close();
        }
    }

    void awaitReady() {
        HttpClient client = HttpClient.newHttpClient();
        Awaitility.await("instance on " + uri + " (log: " + log + ")")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> {
                    assertThat(process.isAlive()).as("instance process alive, see " + log).isTrue();
                    return client.send(HttpRequest.newBuilder(uri.resolve("/search"))
                            .header("X-Tenant-Id", "readiness-" + UUID.randomUUID()).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                });
    }

    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
