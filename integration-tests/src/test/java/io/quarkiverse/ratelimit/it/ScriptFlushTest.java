package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * FUNCTION FLUSH and SCRIPT FLUSH empty Redis of the rate limiter's code (as a restart without persistence does): the
 * next FCALL finds no function, an EVALSHA gets NOSCRIPT, and neither must ever reach a user.
 */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ScriptFlushTest {

    @TestHTTPResource("/exact/sliding")
    URI sliding;

    @Inject
    ScriptRunner scripts;

    @Inject
    LimiterStatus limiter;

    @Test
    void aScriptFlushDuringABurstCausesNoErrorAndKeepsTheCountExact() {
        String tenant = "flush-" + UUID.randomUUID();
        long recoveriesBefore = scripts.noScriptRecoveries();
        long degradedBefore = limiter.decisionsWithoutRedis();

        CompletableFuture<Map<Integer, Integer>> burst = CompletableFuture
                .supplyAsync(() -> ConcurrentRequests.send(300, i -> sliding, tenant));
        try (RespConnection redis = LocalRedisResource.connect()) {
            for (int i = 0; i < 20 && !burst.isDone(); i++) {
                assertThat(redis.command("FUNCTION", "FLUSH")).isEqualTo("OK");
                assertThat(redis.command("SCRIPT", "FLUSH")).isEqualTo("OK");
            }
        }
        Map<Integer, Integer> byStatus = burst.join();

        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(
                200, ExactnessResource.LIMIT,
                429, 300 - ExactnessResource.LIMIT));
        assertThat(scripts.noScriptRecoveries()).isGreaterThan(recoveriesBefore);
        assertThat(limiter.decisionsWithoutRedis()).as("calls decided without Redis").isEqualTo(degradedBefore);
    }

    @Test
    void aFlushedRedisGetsTheLibraryBackFromTheFirstCall() {
        try (RespConnection redis = LocalRedisResource.connect()) {
            redis.command("FUNCTION", "FLUSH");
            redis.command("SCRIPT", "FLUSH");
            long recoveriesBefore = scripts.noScriptRecoveries();
            Map<Integer, Integer> first = ConcurrentRequests.send(1, i -> sliding, "refill-" + UUID.randomUUID());
            assertThat(first).isEqualTo(Map.of(200, 1));
            assertThat(scripts.noScriptRecoveries()).as("one EVAL for the call that found no function")
                    .isEqualTo(recoveriesBefore + 1);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> scripts.functionLibrary().startsWith("loaded:")
                            && redis.command("FUNCTION", "LIST").toString().contains("quarkus_rate_limit_"));

            Map<Integer, Integer> second = ConcurrentRequests.send(1, i -> sliding, "refill-" + UUID.randomUUID());
            assertThat(second).isEqualTo(Map.of(200, 1));
            assertThat(scripts.noScriptRecoveries()).as("the library is back").isEqualTo(recoveriesBefore + 1);
        }
    }
}
