package io.quarkiverse.ratelimit.runtime.outgoing;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

/**
 * How long an upstream service asked an outgoing call to wait: its answer was 429 (Too Many Requests) or 503 (Service
 * Unavailable) with {@code Retry-After} (seconds or an HTTP date), or with the IETF draft's {@code RateLimit} header
 * ({@code "name";r=0;t=5}), or the common {@code RateLimit-Reset} / {@code X-RateLimit-Reset} (seconds). A REST
 * Client method fails with such an answer ({@link WebApplicationException}), or returns it ({@link Response}).
 */
final class UpstreamRetryTimes {

    /** A retry time beyond this is not a pause but an outage: it is capped, and the limits' own state takes over. */
    static final Duration LONGEST = Duration.ofHours(1);

    private static final Pattern RATE_LIMIT_EXHAUSTED = Pattern.compile("(?:^|;)\\s*r=0\\s*;(?:.*;)?\\s*t=(\\d+)");

    private UpstreamRetryTimes() {
    }

    /** The status of an upstream's answer: the call's result or failure; 0 when it is neither a response nor one's failure. */
    static int status(Object outcome) {
        Response response = response(outcome);
        return response == null ? 0 : response.getStatus();
    }

    private static Response response(Object outcome) {
        return outcome instanceof WebApplicationException failure ? failure.getResponse()
                : outcome instanceof Response answer ? answer : null;
    }

    /** The retry time an upstream's answer names, {@code null} when it is not a 429 or 503 naming one. */
    static Duration of(Object outcome, Instant now) {
        Response response = response(outcome);
        if (response == null || response.getStatus() != 429 && response.getStatus() != 503) {
            return null;
        }
        Duration retry = retryAfter(response.getHeaderString("Retry-After"), now);
        if (retry == null) {
            retry = rateLimitReset(response.getHeaderString("RateLimit"));
        }
        if (retry == null) {
            retry = seconds(response.getHeaderString("RateLimit-Reset"));
        }
        if (retry == null) {
            retry = seconds(response.getHeaderString("X-RateLimit-Reset"));
        }
        if (retry == null || retry.isNegative() || retry.isZero()) {
            return null;
        }
        return retry.compareTo(LONGEST) > 0 ? LONGEST : retry;
    }

    private static Duration retryAfter(String value, Instant now) {
        Duration seconds = seconds(value);
        if (seconds != null || value == null) {
            return seconds;
        }
        try {
            return Duration.between(now, ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** {@code t} of the first policy with nothing left ({@code r=0}) in a {@code RateLimit} header. */
    private static Duration rateLimitReset(String value) {
        if (value == null) {
            return null;
        }
        for (String item : value.split(",")) {
            Matcher exhausted = RATE_LIMIT_EXHAUSTED.matcher(item);
            if (exhausted.find()) {
                return Duration.ofSeconds(Long.parseLong(exhausted.group(1)));
            }
        }
        return null;
    }

    private static Duration seconds(String value) {
        if (value == null || value.isBlank() || !value.trim().chars().allMatch(Character::isDigit)
                || value.trim().length() > 9) {
            return null;
        }
        return Duration.ofSeconds(Long.parseLong(value.trim()));
    }
}
