package io.quarkiverse.ratelimit.runtime.http;

import java.time.Duration;
import java.util.List;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;

/**
 * Answers a call refused by a concurrency limit with {@code 429 Too Many Requests}, {@code Retry-After: 1} and a
 * {@code quota-exceeded} problem+json body.
 */
public class ConcurrencyLimitExceededExceptionMapper implements ExceptionMapper<ConcurrencyLimitExceededException> {

    @Override
    public Response toResponse(ConcurrencyLimitExceededException exception) {
        Response.ResponseBuilder response = Response.status(RateLimitExceededExceptionMapper.TOO_MANY_REQUESTS);
        RateLimitHeaders.retryAfter(response, Duration.ofSeconds(1));
        return new ProblemDetails(ProblemDetails.QUOTA_EXCEEDED, RateLimitExceededExceptionMapper.TOO_MANY_REQUESTS,
                "Too Many Requests", exception.getMessage() + "; retry when one of them has ended")
                .violatedPolicies(List.of(exception.limitName()))
                .member("concurrency-limit", exception.limit())
                .build(response);
    }
}
