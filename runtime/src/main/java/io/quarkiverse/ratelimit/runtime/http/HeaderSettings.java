package io.quarkiverse.ratelimit.runtime.http;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkus.runtime.StartupEvent;

/**
 * Hands {@code quarkus.rate-limit.headers.*} to {@link RateLimitHeaders} at start-up, before any request is served:
 * the headers are written from static code paths (the request filter, the interceptor, the exception mappers).
 */
@Singleton
public class HeaderSettings {

    void start(@Observes StartupEvent event, RateLimitConfig config) {
        RateLimitHeaders.configure(config.headers());
    }
}
