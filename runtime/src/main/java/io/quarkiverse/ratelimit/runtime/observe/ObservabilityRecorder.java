package io.quarkiverse.ratelimit.runtime.observe;

import org.jboss.logging.Logger;

import io.quarkus.runtime.annotations.Recorder;

/** Start-up advice about the application's health checks. */
@Recorder
public class ObservabilityRecorder {

    private static final Logger LOG = Logger.getLogger(ObservabilityRecorder.class);

    /**
     * Quarkus's Redis readiness check is on by default and goes DOWN with Redis, taking every instance out of rotation
     * while the limiter's failure modes would keep serving; said once at start-up, only while the application has
     * not chosen ({@code quarkus.redis.health.enabled} unset).
     */
    public void adviseOnRedisReadiness() {
        LOG.warn("Rate limiter: Quarkus's Redis readiness check is on (by default), so a Redis outage takes every"
                + " instance out of rotation although the rate limiter keeps deciding by its failure modes. If Redis"
                + " serves only the rate limiter, set quarkus.redis.health.enabled=false: the readiness check"
                + " 'rate-limit' reports Redis instead. Set quarkus.redis.health.enabled=true to keep Quarkus's check"
                + " without this warning.");
    }
}
