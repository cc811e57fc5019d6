package io.quarkiverse.ratelimit.runtime.http;

import java.util.List;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.RateLimiterUnavailableException;

/**
 * A fail-closed limit that Redis could not decide: {@code 503 Service Unavailable}, with {@code Retry-After} and a
 * {@code temporary-reduced-capacity} problem+json body.
 */
public class RateLimiterUnavailableExceptionMapper implements ExceptionMapper<RateLimiterUnavailableException> {

    static final int SERVICE_UNAVAILABLE = 503;

    @Override
    public Response toResponse(RateLimiterUnavailableException exception) {
        Response.ResponseBuilder response = Response.status(SERVICE_UNAVAILABLE);
        long retryAfter = RateLimitHeaders.retryAfter(response, exception.retryAfter());
        return new ProblemDetails(ProblemDetails.TEMPORARY_REDUCED_CAPACITY, SERVICE_UNAVAILABLE,
                "Service Unavailable",
                "Rate limit '" + exception.limitName() + "' cannot be checked right now; retry in " + retryAfter + "s")
                .violatedPolicies(List.of(exception.limitName()))
                .member("retry-after-seconds", retryAfter)
                .build(response);
    }
}
