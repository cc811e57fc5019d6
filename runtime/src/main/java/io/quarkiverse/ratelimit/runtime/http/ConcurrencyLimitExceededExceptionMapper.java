package io.quarkiverse.ratelimit.runtime.http;

import java.time.Duration;
import java.util.List;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;

/**
 * Answers a call refused by a concurrency limit with {@code 429 Too Many Requests}, a {@code Retry-After} of when the
 * oldest call in flight frees its slot at the latest (as Redis computed it; one second when unknown) and a
 * {@code quota-exceeded} problem+json body.
 */
public class ConcurrencyLimitExceededExceptionMapper implements ExceptionMapper<ConcurrencyLimitExceededException> {

    @Override
    public Response toResponse(ConcurrencyLimitExceededException exception) {
        Response.ResponseBuilder response = Response.status(RateLimitExceededExceptionMapper.TOO_MANY_REQUESTS);
        long retryAfterSeconds = RateLimitHeaders.retryAfter(response,
                exception.retryAfter() == null ? Duration.ofSeconds(1) : exception.retryAfter());
        return new ProblemDetails(ProblemDetails.QUOTA_EXCEEDED, RateLimitExceededExceptionMapper.TOO_MANY_REQUESTS,
                "Too Many Requests", exception.getMessage() + "; retry when one of them has ended")
                .violatedPolicies(List.of(exception.limitName()))
                .member("concurrency-limit", exception.limit())
                .member("retry-after-seconds", retryAfterSeconds)
                .build(response);
    }
}
