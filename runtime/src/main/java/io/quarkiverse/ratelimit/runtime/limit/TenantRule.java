package io.quarkiverse.ratelimit.runtime.limit;

import io.quarkiverse.ratelimit.MissingTenant;
import io.quarkiverse.ratelimit.TenantSource;

/**
 * How the per-tenant limits of one method find their tenant (one rule per method: all its per-tenant keys share one
 * hash tag).
 *
 * @param source where the tenant comes from (never {@link TenantSource#DEFAULT})
 * @param missing what happens when the source finds none
 * @param missingStatus the status of a rejected call
 */
public record TenantRule(TenantSource source, MissingTenant missing, int missingStatus) {

    /**
     * Why a JWT claim cannot name the tenant in this application: the one rule, checked at build time for an
     * annotation's source and at start-up for a configured one.
     */
    public static final String NO_TOKENS = "neither quarkus-smallrye-jwt nor quarkus-oidc is in the application";

}
