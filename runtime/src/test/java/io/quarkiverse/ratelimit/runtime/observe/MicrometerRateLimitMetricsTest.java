package io.quarkiverse.ratelimit.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;

class MicrometerRateLimitMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void theTenantTagHasAHardCapAndLaterTenantsCountAsOther() {
        MicrometerRateLimitMetrics metrics = new MicrometerRateLimitMetrics(registry, true, 0.2, true, 2);
        for (String tenant : new String[] { "acme", "globex", "initech", "acme", "umbrella", null }) {
            metrics.decided(List.of(allowed("search", 10, 5)), DecidedBy.REDIS, ShadowMask.NONE, tenant);
        }
        assertThat(decisions("acme")).isEqualTo(2);
        assertThat(decisions("globex")).isEqualTo(1);
        assertThat(decisions("other")).as("initech and umbrella, beyond the cap").isEqualTo(2);
        assertThat(decisions("none")).as("a call without a tenant").isEqualTo(1);
        assertThat(registry.find(MicrometerLimitMeters.DECISIONS).counters()).hasSize(4);
    }

    @Test
    void withoutTheTenantTagThereIsOneSeriesPerLimitAndOutcome() {
        MicrometerRateLimitMetrics metrics = new MicrometerRateLimitMetrics(registry, true, 0.2, false, 2);
        metrics.decided(List.of(allowed("search", 10, 5), allowed("burst", 3, 0)), DecidedBy.REDIS, ShadowMask.NONE, "acme");
        metrics.decided(List.of(allowed("search", 10, 4)), DecidedBy.FALLBACK, ShadowMask.NONE, "globex");
        assertThat(registry.find(MicrometerLimitMeters.DECISIONS).counters()).hasSize(3)
                .allSatisfy(counter -> assertThat(counter.getId().getTag("tenant")).isNull());
    }

    @Test
    void nearLimitCountsAdmittedCallsThatLeftLessThanTheRatio() {
        MicrometerRateLimitMetrics metrics = new MicrometerRateLimitMetrics(registry, true, 0.2, false, 100);
        metrics.decided(List.of(allowed("search", 10, 2)), DecidedBy.REDIS, ShadowMask.NONE, null); // 2 is not below 0.2 * 10
        metrics.decided(List.of(allowed("search", 10, 1)), DecidedBy.REDIS, ShadowMask.NONE, null);
        metrics.decided(List.of(allowed("search", 10, 0)), DecidedBy.FALLBACK, ShadowMask.NONE, null);
        metrics.decided(List.of(refused("search", 10)), DecidedBy.REDIS, ShadowMask.NONE, null); // refused: not near, over
        assertThat(registry.get(MicrometerLimitMeters.NEAR_LIMIT).tag("limit", "search").counter().count())
                .isEqualTo(2);
    }

    @Test
    void settledReservationsCountTheirEstimatesRealCostsAndOverruns() {
        MicrometerRateLimitMetrics metrics = new MicrometerRateLimitMetrics(registry, true, 0.2, false, 100);
        metrics.settled("llm-tokens", 300, 120);
        metrics.settled("llm-tokens", 300, 450);
        assertThat(units("reserved")).isEqualTo(600);
        assertThat(units("settled")).isEqualTo(570);
        assertThat(units("overrun")).as("charged beyond an estimate").isEqualTo(150);
    }

    private double units(String kind) {
        return registry.get(MicrometerReservationMeters.UNITS).tag("limit", "llm-tokens").tag("kind", kind).counter()
                .count();
    }

    @Test
    void disabledRegistersNothing() {
        MicrometerRateLimitMetrics metrics = new MicrometerRateLimitMetrics(registry, false, 0.2, false, 100);
        metrics.decided(List.of(allowed("search", 10, 0)), DecidedBy.REDIS, ShadowMask.NONE, "acme");
        metrics.redisCall(RedisOperation.DECIDE, RedisOutcome.SUCCESS, 1000);
        metrics.scriptReloaded();
        metrics.concurrencyRejected("uploads");
        metrics.settled("llm-tokens", 300, 120);
        assertThat(registry.getMeters()).isEmpty();
    }

    private double decisions(String tenant) {
        Counter counter = registry.find(MicrometerLimitMeters.DECISIONS).tag("tenant", tenant).counter();
        return counter == null ? 0 : counter.count();
    }

    private static RateLimitDecision allowed(String name, long limit, long remaining) {
        return new RateLimitDecision(name, limit, Duration.ofMinutes(1), true, remaining, Duration.ofMinutes(1),
                Duration.ZERO, false);
    }

    private static RateLimitDecision refused(String name, long limit) {
        return new RateLimitDecision(name, limit, Duration.ofMinutes(1), false, 0, Duration.ofMinutes(1),
                Duration.ofSeconds(1), false);
    }
}
