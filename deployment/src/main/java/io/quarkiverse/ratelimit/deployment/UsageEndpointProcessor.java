package io.quarkiverse.ratelimit.deployment;

import static io.quarkus.deployment.annotations.ExecutionTime.RUNTIME_INIT;

import io.quarkiverse.ratelimit.runtime.RateLimitRecorder;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.http.TenantUsageEndpoint;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.vertx.http.deployment.HttpRootPathBuildItem;
import io.quarkus.vertx.http.deployment.RouteBuildItem;

/** The usage endpoint, where a tenant reads its own limits: served only when {@code usage.enabled} is set. */
class UsageEndpointProcessor {

    @BuildStep
    AdditionalBeanBuildItem usageEndpointBean(RateLimitBuildConfig config) {
        return config.usage().enabled() ? AdditionalBeanBuildItem.unremovableOf(TenantUsageEndpoint.class) : null;
    }

    @BuildStep
    @Record(RUNTIME_INIT)
    void usageEndpointRoute(RateLimitBuildConfig config, RateLimitRecorder recorder, HttpRootPathBuildItem httpRoot,
            BuildProducer<RouteBuildItem> routes) {
        if (config.usage().enabled()) {
            routes.produce(httpRoot.routeBuilder().route(config.usage().path())
                    .handler(recorder.usageHandler()).build());
        }
    }
}
