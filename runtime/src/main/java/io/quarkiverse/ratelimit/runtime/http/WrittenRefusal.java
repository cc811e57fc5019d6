package io.quarkiverse.ratelimit.runtime.http;

import java.time.Duration;
import java.util.List;
import java.util.function.BiPredicate;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * A 429 as written to an HTTP response, its headers and body rendered once: a flood's refusals read the same (the
 * same limits, their times in the same whole seconds) for a second at a time, so each is compared with the one before
 * ({@link #readsAs}) and written again without rendering it again.
 */
final class WrittenRefusal {

    private static final CharSequence CONTENT_TYPE = HttpHeaders.createOptimized("Content-Type");
    private static final CharSequence PROBLEM = HttpHeaders.createOptimized(ProblemDetails.MEDIA_TYPE);
    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized(RateLimitHeaders.RETRY_AFTER);
    private static final int TOO_MANY_REQUESTS = 429;

    /** {@code Retry-After} in seconds; -1 when the call can never be admitted. */
    private final long retryAfterSeconds;
    private final List<RateLimitDecision> shown;
    private final List<RateLimitDecision> decided;
    /**
     * Names and values, encoded for HTTP/1.1 once ({@link HttpHeaders#createOptimized}): each write copies their bytes
     * instead of hashing and encoding the strings again.
     */
    private final CharSequence[] headers;
    /**
     * The body, in a buffer made once: each write sends a slice of it ({@link Buffer#getByteBuf}), so the buffer serves
     * every write of this refusal without a copy of the bytes into a new one.
     */
    private final Buffer body;

    private WrittenRefusal(long retryAfterSeconds, List<RateLimitDecision> shown, List<RateLimitDecision> decided,
            CharSequence[] headers, byte[] body) {
        this.retryAfterSeconds = retryAfterSeconds;
        this.shown = shown;
        this.decided = decided;
        this.headers = headers;
        this.body = Buffer.buffer(body);
    }

    /** @param headers the rate-limit headers of {@code shown}, names and values */
    static WrittenRefusal of(RateLimitExceededException refusal, List<RateLimitDecision> shown, String[] headers,
            byte[] body) {
        long retryAfter = retryAfterSeconds(refusal);
        CharSequence[] all = new CharSequence[headers.length + (retryAfter < 0 ? 2 : 4)];
        int at = 0;
        if (retryAfter >= 0) {
            all[at++] = RETRY_AFTER;
            all[at++] = HttpHeaders.createOptimized(Long.toString(retryAfter));
        }
        for (String header : headers) {
            all[at++] = HttpHeaders.createOptimized(header);
        }
        all[at++] = CONTENT_TYPE;
        all[at] = PROBLEM;
        return new WrittenRefusal(retryAfter, shown, refusal.decisions(), all, body);
    }

    /**
     * Whether {@code refusal} with {@code shown} renders as this one: the same limits with the same values, remaining
     * units and whole seconds, the same ones refusing, the same {@code Retry-After}.
     */
    boolean readsAs(RateLimitExceededException refusal, List<RateLimitDecision> shown) {
        return retryAfterSeconds(refusal) == retryAfterSeconds && same(this.shown, shown, WrittenRefusal::sameShown)
                && same(decided, refusal.decisions(), WrittenRefusal::sameDecided);
    }

    void writeTo(HttpServerResponse response) {
        MultiMap written = response.headers();
        for (int i = 0; i < headers.length; i += 2) {
            written.set(headers[i], headers[i + 1]);
        }
        // no completion listener (null): the write's outcome changes nothing here, and a response ended with one carries
        // a promise that each write in the pipeline adds a listener to (a few percent of a flood's CPU, bench/http.sh)
        response.setStatusCode(TOO_MANY_REQUESTS).end(body, null);
    }

    /** What the headers show of a decision: its limit, units left, window and reset, in whole seconds. */
    private static boolean sameShown(RateLimitDecision a, RateLimitDecision b) {
        return a.remaining() == b.remaining() && seconds(a.resetAfter()) == seconds(b.resetAfter()) && sameLimit(a, b);
    }

    /** What the body shows of a decision: whether it refused, and its limit. */
    private static boolean sameDecided(RateLimitDecision a, RateLimitDecision b) {
        return a.allowed() == b.allowed() && sameLimit(a, b);
    }

    private static boolean sameLimit(RateLimitDecision a, RateLimitDecision b) {
        return a.limit() == b.limit() && a.limitName().equals(b.limitName())
                && seconds(a.window()) == seconds(b.window());
    }

    private static boolean same(List<RateLimitDecision> these, List<RateLimitDecision> those,
            BiPredicate<RateLimitDecision, RateLimitDecision> alike) {
        if (these.size() != those.size()) {
            return false;
        }
        for (int i = 0; i < these.size(); i++) {
            if (!alike.test(these.get(i), those.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static long retryAfterSeconds(RateLimitExceededException refusal) {
        Duration retryAfter = refusal.retryAfter();
        return retryAfter == null ? -1 : RateLimitHeaders.retryAfterSeconds(retryAfter);
    }

    private static long seconds(Duration duration) {
        return duration == null ? -1 : RateLimitHeaders.wholeSecondsUp(duration);
    }
}
