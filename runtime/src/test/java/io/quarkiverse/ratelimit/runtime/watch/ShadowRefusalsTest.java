package io.quarkiverse.ratelimit.runtime.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.observe.DecidedBy;
import io.quarkiverse.ratelimit.runtime.observe.DecidedCall;

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

    @Test
    void onlyTheShadowRefusalsOfCallsThatProceededAreLogged() {
        ShadowMask secondInShadow = ShadowMask.NONE.with(1);
        log.decided(call(List.of(refused("checkout"), refused("search")), secondInShadow));
        assertThat(log.refused(refused("search"), "acme")).as("a call an enforced limit refused logged nothing")
                .isTrue();

        now.addAndGet(ShadowRefusals.INTERVAL_NANOS);
        log.decided(call(List.of(admitted("checkout"), refused("search")), secondInShadow));
        assertThat(log.refused(refused("search"), "acme")).as("the proceeding call's refusal wrote the line").isFalse();
    }

    private static DecidedCall call(List<RateLimitDecision> decisions, ShadowMask shadow) {
        return new DecidedCall(List.of("k1", "k2"), List.of(), decisions, DecidedBy.REDIS, null, shadow, "acme", null);
    }

    private static RateLimitDecision admitted(String limit) {
        return new RateLimitDecision(limit, 10, Duration.ofMinutes(1), true, 5, Duration.ofMinutes(1), Duration.ZERO,
                false);
    }

    private static RateLimitDecision refused(String limit) {
        return new RateLimitDecision(limit, 10, Duration.ofMinutes(1), false, 0, Duration.ofMinutes(1),
                Duration.ofSeconds(1), false);
    }
}
