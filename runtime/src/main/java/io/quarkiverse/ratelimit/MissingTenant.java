package io.quarkiverse.ratelimit;

/** What a {@link Scope#TENANT} limit does with a call whose tenant source finds no tenant. */
public enum MissingTenant {

    /**
     * Refuse the call ({@link TenantRequiredException}): {@code 401} for the principal and JWT claim sources,
     * {@code 400} for the others, unless {@code missing-status} says otherwise.
     */
    REJECT,

    /** Count the call in one bucket shared by every call without a tenant. */
    ANONYMOUS,

    /** Count the call in its client address's bucket. */
    CLIENT_ADDRESS
}
