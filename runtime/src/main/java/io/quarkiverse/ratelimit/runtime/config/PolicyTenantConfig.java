package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;
import java.util.OptionalInt;

import io.quarkiverse.ratelimit.MissingTenant;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkus.runtime.annotations.ConfigGroup;

@ConfigGroup
public interface PolicyTenantConfig {

    /**
     * Where the tenant of this policy's limits comes from (see {@code quarkus.rate-limit.tenant.source};
     * {@code default} fails start-up).
     */
    Optional<TenantSource> source();

    /** What this policy's limits do without a tenant (see {@code quarkus.rate-limit.tenant.missing}). */
    Optional<MissingTenant> missing();

    /** The status of a call rejected for having no tenant (see {@code quarkus.rate-limit.tenant.missing-status}). */
    OptionalInt missingStatus();
}
