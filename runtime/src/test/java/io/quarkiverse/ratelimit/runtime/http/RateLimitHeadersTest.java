package io.quarkiverse.ratelimit.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitDecision;

class RateLimitHeadersTest {

    @Test
    void thePolicyListsEveryLimitWithItsQuotaAndWindowInSeconds() {
        assertThat(RateLimitHeaders.policy(List.of(
                decision("burst", 10, Duration.ofSeconds(1)),
                decision("hourly", 1000, Duration.ofHours(1)),
                decision("sub-second", 5, Duration.ofMillis(500)))))
                .isEqualTo("\"burst\";q=10;w=1, \"hourly\";q=1000;w=3600, \"sub-second\";q=5;w=1");
    }

    private static RateLimitDecision decision(String name, long limit, Duration window) {
        return new RateLimitDecision(name, limit, window, true, limit, window, Duration.ZERO, false);
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
