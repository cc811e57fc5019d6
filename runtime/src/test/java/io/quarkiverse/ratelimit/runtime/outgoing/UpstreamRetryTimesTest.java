package io.quarkiverse.ratelimit.runtime.outgoing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

/** The retry time an upstream's answer names, in each of the ways upstreams name one. */
class UpstreamRetryTimesTest {

    private static final Instant NOW = Instant.parse("2026-11-27T16:00:00Z");

    @Test
    void retryAfterInSecondsOrAsAnHttpDateOnA429OrA503() {
        assertThat(retryTime(answer(429, "Retry-After", "7"))).isEqualTo(Duration.ofSeconds(7));
        String inHalfAMinute = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(30).atZone(ZoneOffset.UTC));
        assertThat(retryTime(answer(503, "Retry-After", inHalfAMinute))).isEqualTo(Duration.ofSeconds(30));
        assertThat(retryTime(new WebApplicationException(answer(429, "Retry-After", "2"))))
                .as("a REST Client method that fails with the answer").isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theRateLimitHeadersWhenThereIsNoRetryAfter() {
        assertThat(retryTime(answer(429, "RateLimit", "\"burst\";r=3;t=1, \"daily\";r=0;t=12")))
                .as("the first policy with nothing left").isEqualTo(Duration.ofSeconds(12));
        assertThat(retryTime(answer(429, "RateLimit-Reset", "4"))).isEqualTo(Duration.ofSeconds(4));
        assertThat(retryTime(answer(429, "X-RateLimit-Reset", "3"))).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void noRetryTimeForOtherStatusesNoneNamedOrNoneLeftAndAnOutageIsCapped() {
        assertThat(retryTime(answer(500, "Retry-After", "7"))).isNull();
        assertThat(retryTime(Response.status(429).build())).isNull();
        assertThat(retryTime(answer(429, "Retry-After", "0"))).isNull();
        assertThat(retryTime(answer(429, "Retry-After", "soon"))).isNull();
        assertThat(retryTime(answer(503, "Retry-After", "86400"))).isEqualTo(UpstreamRetryTimes.LONGEST);
        assertThat(retryTime("not an answer")).isNull();
    }

    private static Duration retryTime(Object outcome) {
        return UpstreamRetryTimes.of(outcome, NOW);
    }

    private static Response answer(int status, String header, String value) {
        return Response.status(status).header(header, value).build();
    }
}
