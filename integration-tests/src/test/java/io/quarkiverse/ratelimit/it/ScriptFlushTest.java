package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.decide.DecisionGuard;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** SCRIPT FLUSH empties Redis's script cache: the next EVALSHA gets NOSCRIPT, which must never reach a user. */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ScriptFlushTest {

    @TestHTTPResource("/exact/sliding")
    URI sliding;

    @Inject
    ScriptRunner scripts;

    @Inject
    DecisionGuard limiter;

    @Test
    void aScriptFlushDuringABurstCausesNoErrorAndKeepsTheCountExact() {
        String tenant = "flush-" + UUID.randomUUID();
        long recoveriesBefore = scripts.noScriptRecoveries();
        long degradedBefore = limiter.degradedCalls();

        CompletableFuture<Map<Integer, Integer>> burst = CompletableFuture
                .supplyAsync(() -> ConcurrentRequests.send(300, i -> sliding, tenant));
        try (RespConnection redis = LocalRedisResource.connect()) {
            for (int i = 0; i < 20 && !burst.isDone(); i++) {
                assertThat(redis.command("SCRIPT", "FLUSH")).isEqualTo("OK");
            }
        }
        Map<Integer, Integer> byStatus = burst.join();

        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(
                200, ExactnessResource.LIMIT,
                429, 300 - ExactnessResource.LIMIT));
        assertThat(scripts.noScriptRecoveries()).isGreaterThan(recoveriesBefore);
        assertThat(limiter.degradedCalls()).as("calls decided without Redis").isEqualTo(degradedBefore);
    }

    @Test
    void aFlushedCacheIsRefilledByTheFirstCall() {
        try (RespConnection redis = LocalRedisResource.connect()) {
            redis.command("SCRIPT", "FLUSH");
            long recoveriesBefore = scripts.noScriptRecoveries();
            Map<Integer, Integer> first = ConcurrentRequests.send(1, i -> sliding, "refill-" + UUID.randomUUID());
            assertThat(first).isEqualTo(Map.of(200, 1));
            assertThat(scripts.noScriptRecoveries()).isEqualTo(recoveriesBefore + 1);

            Map<Integer, Integer> second = ConcurrentRequests.send(1, i -> sliding, "refill-" + UUID.randomUUID());
            assertThat(second).isEqualTo(Map.of(200, 1));
            assertThat(scripts.noScriptRecoveries()).as("EVAL cached the script again").isEqualTo(recoveriesBefore + 1);
        }
    }
}
