package io.quarkiverse.ratelimit.runtime.http;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.TenantBlockedException;

/** Answers a call from a blocked tenant with {@code 403 Forbidden}. */
public class TenantBlockedExceptionMapper implements ExceptionMapper<TenantBlockedException> {

    @Override
    public Response toResponse(TenantBlockedException exception) {
        String body = new ProblemDetails(403, "Forbidden", exception.getMessage()).toJson();
        return Response.status(403).entity(body).type(ProblemDetails.MEDIA_TYPE).build();
    }
}
