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
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.ratelimit.localredis.FreePorts;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/**
 * The production shape: two instances of the packaged application (separate JVMs) share one Redis. A burst of 300
 * concurrent requests of one tenant, alternating between the instances, is admitted exactly up to the limit.
 */
class TwoInstancesIT {

    private static LocalRedisServer redis;
    private static List<Instance> instances;

    @BeforeAll
    static void startRedisAndTwoInstances() {
        redis = LocalRedisServer.start();
        Path jar = Path.of(System.getProperty("quarkus-app.jar", "target/quarkus-app/quarkus-run.jar"));
        assertThat(jar).exists();
        instances = List.of(Instance.start(jar, redis), Instance.start(jar, redis));
        instances.forEach(Instance::awaitReady);
    }

    @AfterAll
    static void stopAll() {
        if (instances != null) {
            instances.forEach(Instance::stop);
        }
        if (redis != null) {
            redis.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "sliding", "fixed", "log", "token-bucket", "gcra", "reactive" })
    void twoInstancesAdmitExactlyTheLimitBetweenThem(String endpoint) {
        String tenant = "two-instances-" + UUID.randomUUID();
        long started = System.nanoTime();
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(300,
                i -> instances.get(i % 2).uri.resolve("/exact/" + endpoint), tenant);
        System.out.printf("two instances, %s: 300 concurrent requests answered %s in %d ms%n", endpoint, byStatus,
                (System.nanoTime() - started) / 1_000_000);

        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(
                200, ExactnessResource.LIMIT,
                429, 300 - ExactnessResource.LIMIT));
    }

    private record Instance(Process process, URI uri, Path log) {

        static Instance start(Path jar, LocalRedisServer redis) {
            int port = FreePorts.next();
            try {
                Path log = Files.createTempFile("rate-limit-instance-" + port + "-", ".log");
                Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dquarkus.http.port=" + port,
                        "-Dquarkus.http.host=127.0.0.1",
                        "-Dquarkus.redis.hosts=" + redis.uri(),
                        "-jar", jar.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
                return new Instance(process, URI.create("http://127.0.0.1:" + port), log);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
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
                if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
