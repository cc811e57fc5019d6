package io.quarkiverse.ratelimit.runtime.http;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.TenantRequiredException;

/** Answers a limited call that names no tenant with the limit's status (400 or 401 by default). */
public class TenantRequiredExceptionMapper implements ExceptionMapper<TenantRequiredException> {

    @Override
    public Response toResponse(TenantRequiredException exception) {
        int status = exception.status();
        Response.StatusType type = Response.Status.fromStatusCode(status);
        return new ProblemDetails(status, type == null ? "Tenant Required" : type.getReasonPhrase(),
                exception.getMessage()).build(Response.status(status));
    }
}
