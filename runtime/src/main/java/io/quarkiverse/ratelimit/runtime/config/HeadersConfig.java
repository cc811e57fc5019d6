package io.quarkiverse.ratelimit.runtime.config;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface HeadersConfig {

    /**
     * Whether responses of limited calls, admitted or refused, carry the state of their limits. A refusal's
     * {@code Retry-After} is sent either way.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * Their names: {@code ietf}, the {@code RateLimit} and {@code RateLimit-Policy} structured fields of the IETF
     * draft, one item per limit of the call; or {@code x-rate-limit}, {@code X-RateLimit-Limit},
     * {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} (seconds until the limit is whole again) of the
     * call's limit with the least left, as many APIs name them.
     */
    @WithDefault("ietf")
    HeaderStyle style();
}
