package io.quarkiverse.ratelimit.runtime.config;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigGroup;

@ConfigGroup
public interface TenantSettingsConfig {

    /** The tenant's plan (a key of {@code quarkus.rate-limit.plans}). */
    Optional<String> plan();
}
