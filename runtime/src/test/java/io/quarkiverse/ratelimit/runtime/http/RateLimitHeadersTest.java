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

    /** A limit's item is made once while its quota stays; another quota for the name (a plan) is its own. */
    @Test
    void aLimitsPolicyItemIsKeptWhileItsQuotaStays() {
        String first = RateLimitHeaders.policy(List.of(decision("kept", 100, Duration.ofMinutes(1))));
        assertThat(RateLimitHeaders.policy(List.of(decision("kept", 100, Duration.ofMinutes(1))))).isSameAs(first)
                .isEqualTo("\"kept\";q=100;w=60");
        assertThat(RateLimitHeaders.policy(List.of(decision("kept", 1000, Duration.ofMinutes(1)))))
                .as("another plan's quota").isEqualTo("\"kept\";q=1000;w=60");
        assertThat(RateLimitHeaders.policy(List.of(decision("kept", 1000, Duration.ofHours(1)))))
                .as("another window").isEqualTo("\"kept\";q=1000;w=3600");
        for (int i = 0; i < 2 * RateLimitHeaders.MAX_POLICY_ITEMS; i++) {
            assertThat(RateLimitHeaders.policy(List.of(decision("named-" + i, i, Duration.ofSeconds(1)))))
                    .isEqualTo("\"named-" + i + "\";q=" + i + ";w=1");
        }
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
