package io.quarkiverse.ratelimit.runtime.decide;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitDecision;

class ShadowRefusalsTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ShadowRefusals log = new ShadowRefusals(now::get);

    @Test
    void aFloodOfShadowRefusalsWritesOneLinePerLimitEveryTenSeconds() {
        assertThat(log.refused(refused("search"), "acme")).isTrue();
        for (int i = 0; i < 1000; i++) {
            assertThat(log.refused(refused("search"), "acme")).isFalse();
        }
        assertThat(log.refused(refused("export"), "acme")).as("another limit has its own line").isTrue();

        now.addAndGet(ShadowRefusals.INTERVAL_NANOS);
        assertThat(log.refused(refused("search"), "acme")).isTrue();
    }

    private static RateLimitDecision refused(String limit) {
        return new RateLimitDecision(limit, 10, Duration.ofMinutes(1), false, 0, Duration.ofMinutes(1),
                Duration.ofSeconds(1), false);
    }
}
