package io.quarkiverse.ratelimit;

/** Whose calls one counter of a {@link RateLimited} limit counts. */
public enum Scope {

    /** Each tenant's own counter (the tenant as configured: header, principal or client address). The default. */
    TENANT,

    /** Each client address's counter, whatever the tenant: for login or sign-up endpoints. */
    CLIENT_ADDRESS,

    /** One counter for every caller together: to protect something shared, such as a downstream service. */
    GLOBAL
}
