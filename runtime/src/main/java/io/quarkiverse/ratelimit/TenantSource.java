package io.quarkiverse.ratelimit;

/**
 * Where the tenant of a {@link Scope#TENANT} limit comes from. Per client address and for everyone together are
 * {@link Scope#CLIENT_ADDRESS} and {@link Scope#GLOBAL}.
 */
public enum TenantSource {

    /**
     * {@code quarkus.rate-limit.tenant.source} (or the policy's {@code tenant.source}); when neither is set, the header
     * if {@code quarkus.rate-limit.tenant.header} is set, else the principal.
     */
    DEFAULT,

    /** The request header {@code quarkus.rate-limit.tenant.header}. Missing: 400 unless configured otherwise. */
    HEADER,

    /** The authenticated principal's name. Anonymous: 401 unless configured otherwise. */
    PRINCIPAL,

    /**
     * The claim {@code quarkus.rate-limit.tenant.claim} of the caller's JSON Web Token (quarkus-smallrye-jwt or
     * quarkus-oidc). No token or no claim: 401 unless configured otherwise.
     */
    JWT_CLAIM,

    /**
     * The value of the method parameter {@code quarkus.rate-limit.tenant.path-parameter} (a {@code @PathParam} or
     * {@code @RestPath} name, or the Java parameter name), for APIs shaped {@code /tenants/{tenant}/...}.
     */
    PATH_PARAMETER,

    /** The application's {@link TenantResolver} bean. */
    RESOLVER
}
