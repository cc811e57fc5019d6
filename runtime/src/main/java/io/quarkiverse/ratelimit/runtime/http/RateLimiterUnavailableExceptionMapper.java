package io.quarkiverse.ratelimit.runtime.http;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.RateLimiterUnavailableException;

/** A fail-closed limit that Redis could not decide: {@code 503 Service Unavailable}, with {@code Retry-After}. */
public class RateLimiterUnavailableExceptionMapper implements ExceptionMapper<RateLimiterUnavailableException> {

    static final int SERVICE_UNAVAILABLE = 503;

    @Override
    public Response toResponse(RateLimiterUnavailableException exception) {
        long retryAfter = RateLimitHeaders.retryAfterSeconds(exception.retryAfter());
        String body = new ProblemDetails(SERVICE_UNAVAILABLE, "Service Unavailable",
                "Rate limit '" + exception.limitName() + "' cannot be checked right now; retry in " + retryAfter + "s")
                .member("retry-after-seconds", retryAfter)
                .toJson();
        return Response.status(SERVICE_UNAVAILABLE).header(RateLimitHeaders.RETRY_AFTER, retryAfter)
                .entity(body).type(ProblemDetails.MEDIA_TYPE).build();
    }
}
