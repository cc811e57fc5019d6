package io.quarkiverse.ratelimit.runtime.http;

import java.time.Duration;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;

/**
 * Answers a refused call with {@code 429 Too Many Requests}, {@code Retry-After} and a problem+json body naming the
 * violated limits. The {@code RateLimit-Policy} and {@code RateLimit} headers are added by {@link RateLimitHeaders}.
 */
public class RateLimitExceededExceptionMapper implements ExceptionMapper<RateLimitExceededException> {

    static final int TOO_MANY_REQUESTS = 429;

    @Override
    public Response toResponse(RateLimitExceededException exception) {
        Duration retryAfter = exception.retryAfter();
        StringBuilder violated = new StringBuilder("[");
        for (RateLimitDecision violation : exception.violations()) {
            if (violated.length() > 1) {
                violated.append(',');
            }
            violated.append("{\"name\":\"");
            ProblemDetails.appendEscaped(violated, violation.limitName());
            violated.append("\",\"limit\":").append(violation.limit())
                    .append(",\"window-seconds\":").append(RateLimitHeaders.wholeSecondsUp(violation.window()))
                    .append('}');
        }
        violated.append(']');

        ProblemDetails problem = new ProblemDetails(TOO_MANY_REQUESTS, "Too Many Requests", detail(exception, retryAfter))
                .rawMember("violated-limits", violated.toString());
        Response.ResponseBuilder response = Response.status(TOO_MANY_REQUESTS);
        if (retryAfter != null) {
            long seconds = RateLimitHeaders.retryAfterSeconds(retryAfter);
            problem.member("retry-after-seconds", seconds);
            response.header(RateLimitHeaders.RETRY_AFTER, seconds);
        }
        return response.entity(problem.toJson()).type(ProblemDetails.MEDIA_TYPE).build();
    }

    private static String detail(RateLimitExceededException exception, Duration retryAfter) {
        RateLimitDecision first = exception.violations().get(0);
        String detail = "Rate limit '" + first.limitName() + "' of " + first.limit() + " per "
                + RateLimitHeaders.wholeSecondsUp(first.window()) + "s exceeded";
        if (retryAfter == null) {
            return detail + "; this call can never be admitted";
        }
        return detail + "; retry in " + RateLimitHeaders.retryAfterSeconds(retryAfter) + "s";
    }
}
