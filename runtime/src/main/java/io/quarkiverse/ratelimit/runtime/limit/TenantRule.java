package io.quarkiverse.ratelimit.runtime.limit;

import java.util.Optional;
import java.util.OptionalInt;

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

    /**
     * What configures tenants at one level: the application's {@code quarkus.rate-limit.tenant.*}, or a policy's
     * {@code tenant.*} (whose {@code header} is never set).
     */
    public record Settings(Optional<TenantSource> source, boolean header, Optional<MissingTenant> missing,
            OptionalInt missingStatus) {
    }

    /**
     * The rule of a limit, from its annotation's source, its policy's settings and the application's: the source the
     * annotation names, else the application's ({@code header} when a header is set, else the principal); a call
     * without a tenant is rejected once any of them chose a source, else counted per client address; its status 401
     * for the principal and JWT claim sources, 400 for the others, unless configured. One rule for start-up and for
     * what the build writes into the OpenAPI document.
     *
     * @param policy {@code null} for a limit without a policy
     */
    public static TenantRule of(TenantSource declared, Settings application, Settings policy) {
        boolean configured = declared != TenantSource.DEFAULT || application.source().isPresent()
                || application.header() || policy != null && policy.source().isPresent();
        TenantSource source = declared != TenantSource.DEFAULT ? declared
                : application.source().orElse(application.header() ? TenantSource.HEADER : TenantSource.PRINCIPAL);
        MissingTenant missing = policy != null && policy.missing().isPresent() ? policy.missing().get()
                : application.missing().orElse(configured ? MissingTenant.REJECT : MissingTenant.CLIENT_ADDRESS);
        int status = policy != null && policy.missingStatus().isPresent() ? policy.missingStatus().getAsInt()
                : application.missingStatus().orElse(
                        source == TenantSource.PRINCIPAL || source == TenantSource.JWT_CLAIM ? 401 : 400);
        return new TenantRule(source, missing, status);
    }
}
