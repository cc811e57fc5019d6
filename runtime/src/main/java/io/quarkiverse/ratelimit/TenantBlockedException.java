package io.quarkiverse.ratelimit;

/**
 * A call from a tenant listed in {@code quarkus.rate-limit.blocked-tenants}: Quarkus REST answers {@code 403 Forbidden}.
 * The tenant itself is not echoed back.
 */
public class TenantBlockedException extends RuntimeException {

    public TenantBlockedException() {
        super("This tenant is blocked", null, false, false);
    }
}
