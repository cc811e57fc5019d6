package io.quarkiverse.ratelimit.runtime.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.vertx.core.http.HttpServerResponse;

/**
 * Answers a refused call with {@code 429 Too Many Requests}, {@code Retry-After} and a {@code quota-exceeded}
 * problem+json body naming the violated limits. The {@code RateLimit-Policy} and {@code RateLimit} headers are added by
 * {@link RateLimitHeaders}.
 */
public class RateLimitExceededExceptionMapper implements ExceptionMapper<RateLimitExceededException> {

    static final int TOO_MANY_REQUESTS = 429;

    /** The refusal written last, whose rendering the next one that reads the same writes again. */
    private static volatile WrittenRefusal lastWritten;

    @Override
    public Response toResponse(RateLimitExceededException exception) {
        return tooManyRequests(exception).build();
    }

    /** The 429 of a refusal, without the rate-limit headers; the request filter adds them and answers with it. */
    static Response.ResponseBuilder tooManyRequests(RateLimitExceededException exception) {
        Response.ResponseBuilder response = Response.status(TOO_MANY_REQUESTS);
        Duration retryAfter = exception.retryAfter();
        if (retryAfter != null) {
            RateLimitHeaders.retryAfter(response, retryAfter);
        }
        return problem(exception).body(response);
    }

    /**
     * Writes the 429 of a refusal with the rate-limit headers of {@code shown} straight to the HTTP response: the same
     * status, headers and body as {@link #tooManyRequests} and {@link RateLimitHeaders#add}, without building a JAX-RS
     * response (a refused call under a flood costs less than serving the page).
     */
    static void write(HttpServerResponse response, RateLimitExceededException exception, List<RateLimitDecision> shown) {
        WrittenRefusal written = lastWritten;
        if (written == null || !written.readsAs(exception, shown)) {
            written = WrittenRefusal.of(exception, shown, RateLimitHeaders.headersOf(shown),
                    problem(exception).toJson().getBytes(StandardCharsets.UTF_8));
            lastWritten = written;
        }
        written.writeTo(response);
    }

    /** The problem body of a refusal: the limits that refused, and when to retry. */
    private static ProblemDetails problem(RateLimitExceededException exception) {
        Duration retryAfter = exception.retryAfter();
        List<RateLimitDecision> violations = exception.violations();
        List<String> violated = new ArrayList<>(violations.size());
        for (RateLimitDecision violation : violations) {
            violated.add(violation.limitName());
        }
        ProblemDetails problem = new ProblemDetails(ProblemDetails.QUOTA_EXCEEDED, TOO_MANY_REQUESTS,
                "Too Many Requests", detail(violations.get(0), retryAfter)).violatedPolicies(violated);
        if (retryAfter != null) {
            problem.member("retry-after-seconds", RateLimitHeaders.retryAfterSeconds(retryAfter));
        }
        return problem;
    }

    private static String detail(RateLimitDecision first, Duration retryAfter) {
        String detail = "Rate limit '" + first.limitName() + "' of " + first.limit() + " per "
                + RateLimitHeaders.wholeSecondsUp(first.window()) + "s exceeded";
        if (retryAfter == null) {
            return detail + "; this call can never be admitted";
        }
        return detail + "; retry in " + RateLimitHeaders.retryAfterSeconds(retryAfter) + "s";
    }
}
