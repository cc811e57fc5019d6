package io.quarkiverse.ratelimit.runtime.http;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.TenantBlockedException;

/** Answers a call from a blocked tenant with {@code 403 Forbidden}. */
public class TenantBlockedExceptionMapper implements ExceptionMapper<TenantBlockedException> {

    @Override
    public Response toResponse(TenantBlockedException exception) {
        return new ProblemDetails(403, "Forbidden", exception.getMessage()).build(Response.status(403));
    }
}
