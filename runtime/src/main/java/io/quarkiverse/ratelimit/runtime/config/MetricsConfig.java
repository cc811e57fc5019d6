package io.quarkiverse.ratelimit.runtime.config;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface MetricsConfig {

    /**
     * Whether the rate limiter publishes its metrics ({@code rate_limit.*}) to the application's Micrometer
     * registry. Without quarkus-micrometer there are none, whatever this says.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * An admitted call that leaves less than this share of its limit counts in {@code rate_limit.near_limit}: a
     * tenant close to being refused. Between 0 and 1.
     */
    @WithDefault("0.2")
    double nearLimitRatio();

    /**
     * Whether {@code rate_limit.decisions} and {@code rate_limit.near_limit} carry a {@code tenant} tag. Off by
     * default: every tenant is a time series. When on, the first {@code max-tenants} tenants seen get their own
     * value and every later one counts as {@code other}; calls without a tenant count as {@code none}.
     */
    @WithDefault("false")
    boolean tenantTag();

    /** The most distinct {@code tenant} tag values ({@code tenant-tag=true}); beyond it, {@code other}. */
    @WithDefault("100")
    int maxTenants();
}
