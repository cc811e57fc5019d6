package io.quarkiverse.ratelimit.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.LimitDefinition;

class RateLimitHeadersTest {

    @Test
    void thePolicyListsEveryLimitWithItsQuotaAndWindowInSeconds() {
        assertThat(RateLimitHeaders.policy(List.of(
                new LimitDefinition("burst", 10, 1000, Algorithm.FIXED_WINDOW, FailureMode.DEFAULT, 1),
                new LimitDefinition("hourly", 1000, 3_600_000, Algorithm.SLIDING_WINDOW_COUNTER, FailureMode.DEFAULT, 1),
                new LimitDefinition("sub-second", 5, 500, Algorithm.FIXED_WINDOW, FailureMode.DEFAULT, 1))))
                .isEqualTo("\"burst\";q=10;w=1, \"hourly\";q=1000;w=3600, \"sub-second\";q=5;w=1");
    }

    @Test
    void theRateLimitFieldRoundsTheResetUp() {
        assertThat(RateLimitHeaders.rateLimit(List.of(new RateLimitDecision("search", 5, Duration.ofSeconds(10), true, 3,
                Duration.ofMillis(6001), Duration.ZERO, false)))).isEqualTo("\"search\";r=3;t=7");
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndNeverZero() {
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ZERO)).isEqualTo(1);
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ofMillis(1000))).isEqualTo(1);
        assertThat(RateLimitHeaders.retryAfterSeconds(Duration.ofMillis(1001))).isEqualTo(2);
    }
}
