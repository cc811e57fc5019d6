package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;
import java.util.OptionalInt;

import io.quarkiverse.ratelimit.MissingTenant;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface TenantConfig {

    /**
     * Where the tenant of a limit comes from, unless its annotation or policy says otherwise: {@code header},
     * {@code principal}, {@code jwt-claim}, {@code path-parameter} or {@code resolver}. When not set: the header if
     * {@code tenant.header} is set, else the principal, with anonymous calls counted per client address. The
     * value {@code default} is what an annotation says to mean "as configured here"; configured, it fails start-up.
     */
    Optional<TenantSource> source();

    /**
     * The request header that names the tenant, for example {@code X-Tenant-Id}, for the {@code header} source.
     * Setting it makes {@code header} the default source.
     * <p>
     * Tenant values are untrusted: they are escaped, and hashed when longer than 64 characters, before they
     * become part of a Redis key.
     */
    Optional<String> header();

    /** The JSON Web Token claim that names the tenant, for the {@code jwt-claim} source. */
    @WithDefault("tenant")
    String claim();

    /**
     * The method parameter that names the tenant, for the {@code path-parameter} source: a {@code @PathParam}
     * or {@code @RestPath} name, or the Java parameter name. Every method with a limit using this source must have
     * it (checked at start-up).
     */
    @WithDefault("tenant")
    String pathParameter();

    /**
     * What a limit does with a call whose source finds no tenant: {@code reject}, {@code anonymous} (one shared
     * bucket) or {@code client-address} (a bucket per client address). When not set: {@code client-address} if
     * neither {@code tenant.source} nor {@code tenant.header} is set (the zero-configuration behaviour), else
     * {@code reject}.
     */
    Optional<MissingTenant> missing();

    /**
     * The status of a call rejected for having no tenant; when not set, 401 for the {@code principal} and
     * {@code jwt-claim} sources and 400 for the others.
     */
    OptionalInt missingStatus();
}
