package io.quarkiverse.ratelimit.runtime.http;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;

/** Answers a call refused by a concurrency limit with {@code 429 Too Many Requests} and {@code Retry-After: 1}. */
public class ConcurrencyLimitExceededExceptionMapper implements ExceptionMapper<ConcurrencyLimitExceededException> {

    @Override
    public Response toResponse(ConcurrencyLimitExceededException exception) {
        String body = new ProblemDetails(RateLimitExceededExceptionMapper.TOO_MANY_REQUESTS, "Too Many Requests",
                exception.getMessage() + "; retry when one of them has ended")
                .member("concurrency-limit", exception.limit())
                .toJson();
        return Response.status(RateLimitExceededExceptionMapper.TOO_MANY_REQUESTS)
                .header(RateLimitHeaders.RETRY_AFTER, 1).entity(body).type(ProblemDetails.MEDIA_TYPE).build();
    }
}
