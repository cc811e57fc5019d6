package io.quarkiverse.ratelimit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * 300 concurrent requests of one tenant, with only {@code quarkus.redis.hosts} configured: exactly the limit is
 * admitted, every other request gets 429, and none fails (the Redis pool defaults hold the burst).
 */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ExactUnderConcurrencyTest {

    static final int REQUESTS = 300;

    @TestHTTPResource("/exact/")
    URI exact;

    @Inject
    LimiterStatus limiter;

    @ParameterizedTest
    @ValueSource(strings = { "sliding", "fixed", "log", "token-bucket", "gcra", "reactive", "two-limits" })
    void admitsExactlyTheLimitOf300ConcurrentRequests(String endpoint) {
        String tenant = "burst-" + UUID.randomUUID();
        long degradedBefore = limiter.decisionsWithoutRedis();
        Map<Integer, Integer> byStatus = ConcurrentRequests.send(REQUESTS, i -> exact.resolve(endpoint), tenant);

        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(
                200, ExactnessResource.LIMIT,
                429, REQUESTS - ExactnessResource.LIMIT));
        assertThat(limiter.decisionsWithoutRedis()).as("calls decided without Redis").isEqualTo(degradedBefore);
    }

    @Test
    void callsRefusedByOneLimitCountInNoOther() {
        String tenant = "two-limits-" + UUID.randomUUID();
        ConcurrentRequests.send(REQUESTS, i -> exact.resolve("two-limits"), tenant);
        try (RespConnection redis = LocalRedisResource.connect()) {
            // a fixed window stores units * 4 + the window's index mod 4
            String loose = (String) redis.command("GET", "rate-limit:{" + tenant + "}:two-limits-loose:fw");
            assertThat(Long.parseLong(loose) / 4).as("the loose limit counted only the admitted calls").isEqualTo(50);
        }
    }
}
