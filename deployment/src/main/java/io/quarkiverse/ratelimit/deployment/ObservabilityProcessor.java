package io.quarkiverse.ratelimit.deployment;

import static io.quarkus.deployment.annotations.ExecutionTime.RUNTIME_INIT;

import java.util.Optional;
import java.util.logging.Level;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.ConfigValue;

import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.observe.MicrometerRateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.NoDecisionTracing;
import io.quarkiverse.ratelimit.runtime.observe.NoRateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.ObservabilityRecorder;
import io.quarkiverse.ratelimit.runtime.observe.OpenTelemetryDecisionTracing;
import io.quarkiverse.ratelimit.runtime.status.RateLimitReadinessCheck;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.logging.LogCleanupFilterBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.redis.deployment.client.RedisBuildTimeConfig;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;

/** Metrics, traces and the readiness check, each only when the application has the extension that publishes it. */
public class ObservabilityProcessor {

    static final String REDIS_HEALTH_PROPERTY = "quarkus.redis.health.enabled";

    /** Micrometer's meters when the application has quarkus-micrometer; otherwise none, and no Micrometer class. */
    @BuildStep
    AdditionalBeanBuildItem metrics(Optional<MetricsCapabilityBuildItem> metrics) {
        boolean micrometer = metrics.map(capability -> capability.metricsSupported(MetricsFactory.MICROMETER))
                .orElse(false);
        return AdditionalBeanBuildItem.unremovableOf(micrometer
                ? MicrometerRateLimitMetrics.class
                : NoRateLimitMetrics.class);
    }

    /**
     * Keeps a clean start: quarkus-redis-client 3.32 builds each requested client twice (its client and data source
     * steps both initialize every requested name, and its recorder keeps the first with {@code putIfAbsent}, having
     * built the second), so Micrometer sees the Redis pool gauges registered twice and warns at every start. Any
     * application that injects a Redis client with quarkus-micrometer sees it; this extension requests one. The
     * second client is never used nor connected. Only that warning, for the Redis pool's gauges, is dropped.
     */
    @BuildStep
    void quietDuplicateRedisPoolGauges(Optional<MetricsCapabilityBuildItem> metrics,
            BuildProducer<LogCleanupFilterBuildItem> filters) {
        if (metrics.isPresent()) {
            filters.produce(new LogCleanupFilterBuildItem("io.micrometer.core.instrument.MeterRegistry", Level.WARNING,
                    "This Gauge has been already registered (MeterId{name='redis.pool."));
        }
    }

    /** Decisions on the current span when the application has an OpenTelemetry tracer. */
    @BuildStep
    AdditionalBeanBuildItem tracing(Capabilities capabilities) {
        return AdditionalBeanBuildItem.unremovableOf(capabilities.isPresent(Capability.OPENTELEMETRY_TRACER)
                ? OpenTelemetryDecisionTracing.class
                : NoDecisionTracing.class);
    }

    @BuildStep
    HealthBuildItem readinessCheck(RateLimitBuildConfig config) {
        return new HealthBuildItem(RateLimitReadinessCheck.class.getName(), config.health().enabled());
    }

    /** Advises at start-up when Quarkus's Redis readiness check would take the instance out with Redis. */
    @BuildStep
    @Record(RUNTIME_INIT)
    void adviseOnRedisReadiness(Capabilities capabilities, RedisBuildTimeConfig redisConfig,
            RateLimitBuildConfig config, ObservabilityRecorder recorder) {
        boolean redisCheckByDefault = redisConfig.healthEnabled() && !setByTheApplication(REDIS_HEALTH_PROPERTY);
        if (capabilities.isPresent(Capability.SMALLRYE_HEALTH) && config.health().enabled() && redisCheckByDefault) {
            recorder.adviseOnRedisReadiness();
        }
    }

    /** Whether a configuration source has the property, rather than the extension's defaults (ordinal MIN_VALUE). */
    private static boolean setByTheApplication(String property) {
        ConfigValue value = ConfigProvider.getConfig().getConfigValue(property);
        return value.getRawValue() != null && value.getSourceOrdinal() > Integer.MIN_VALUE;
    }
}
