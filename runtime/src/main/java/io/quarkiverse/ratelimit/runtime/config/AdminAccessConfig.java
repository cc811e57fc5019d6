package io.quarkiverse.ratelimit.runtime.config;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface AdminAccessConfig {

    /** The role an authenticated identity needs to call the administration endpoints. */
    @WithDefault("rate-limit-admin")
    String role();
}
