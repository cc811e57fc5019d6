package io.quarkiverse.ratelimit.it;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;

/**
 * The e-mail quota, from code: each tenant may send 10 e-mails an hour, and a bounced e-mail is given back (on any
 * instance, for every instance).
 */
@Path("/emails")
public class EmailQuotaResource {

    private static final Uni<Response> TENANT_REQUIRED = Uni.createFrom()
            .item(() -> Response.status(400).entity("X-Tenant-Id is required").build());

    // tag::quota[]
    static final RateLimit QUOTA = RateLimit.of("emails", 10, Duration.ofHours(1));

    @Inject
    RateLimiter limiter;

    @POST
    public Uni<Response> send(@HeaderParam("X-Tenant-Id") String tenant) {
        if (tenant == null) {
            return TENANT_REQUIRED;
        }
        return limiter.tryAcquire(QUOTA, tenant)
                .map(decision -> decision.allowed() ? Response.ok("sent").build() : Response.status(429).build());
    }

    @POST
    @Path("bounced")
    public Uni<Response> bounced(@HeaderParam("X-Tenant-Id") String tenant) {
        if (tenant == null) {
            return TENANT_REQUIRED;
        }
        return limiter.refund(QUOTA, tenant, 1).replaceWith(Response.noContent().build());
    }
    // end::quota[]
}
