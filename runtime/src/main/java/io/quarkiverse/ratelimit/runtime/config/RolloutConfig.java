package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;
import java.util.Set;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface RolloutConfig {

    /**
     * The share of tenants (0 to 100) for whom limits in {@code enforce} mode are enforced; the others run in
     * shadow mode. A tenant is in the share when a hash of its id, salted with {@code rollout.salt}, falls under
     * it: the same tenants on every instance and after restarts, and raising the share only adds tenants. Limits
     * without a tenant (global, per client address) are enforced only at 100.
     */
    @WithDefault("100")
    int percentage();

    /** Salts the tenants' hash: a new salt picks a new set of tenants for the same percentage. */
    @WithDefault("rate-limit")
    String salt();

    /** Tenants whose limits are enforced whatever the percentage (unless the limit is in shadow or off mode). */
    Optional<Set<String>> always();

    /** Tenants whose limits run in shadow mode whatever the percentage. */
    Optional<Set<String>> never();

    /**
     * Whether responses carry the {@code RateLimit} and {@code RateLimit-Policy} headers of limits in shadow mode.
     * Off by default: clients should not see limits that are not enforced.
     */
    @WithDefault("false")
    boolean shadowHeaders();
}
