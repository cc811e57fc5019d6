package io.quarkiverse.ratelimit.deployment;

import io.quarkiverse.ratelimit.runtime.grpc.GrpcCalls;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildStep;

/**
 * gRPC services limited by {@code @RateLimited} and {@code @ConcurrencyLimited} (their methods are beans' methods, which
 * the interceptors limit): the tenant from a call's metadata, a refusal as a gRPC status. Only with quarkus-grpc.
 */
class GrpcProcessor {

    @BuildStep
    AdditionalBeanBuildItem grpcCalls(Capabilities capabilities) {
        return capabilities.isPresent(Capability.GRPC) ? AdditionalBeanBuildItem.unremovableOf(GrpcCalls.class) : null;
    }
}
