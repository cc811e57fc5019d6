package io.quarkiverse.ratelimit.runtime.http;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import io.quarkiverse.ratelimit.runtime.tenant.MissingTenantException;

/** Answers a limited call that does not name its tenant with {@code 400 Bad Request}. */
public class MissingTenantExceptionMapper implements ExceptionMapper<MissingTenantException> {

    @Override
    public Response toResponse(MissingTenantException exception) {
        String body = new ProblemDetails(400, "Bad Request", exception.getMessage()).toJson();
        return Response.status(400).entity(body).type(ProblemDetails.MEDIA_TYPE).build();
    }
}
