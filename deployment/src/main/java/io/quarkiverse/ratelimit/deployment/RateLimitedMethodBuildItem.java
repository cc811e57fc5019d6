package io.quarkiverse.ratelimit.deployment;

import org.jboss.jandex.MethodInfo;

import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkus.builder.item.MultiBuildItem;

/** A method with valid {@code @RateLimited} limits (its own or its class's). */
public final class RateLimitedMethodBuildItem extends MultiBuildItem {

    private final MethodInfo method;
    private final String methodId;
    private final MethodLimits limits;

    public RateLimitedMethodBuildItem(MethodInfo method, String methodId, MethodLimits limits) {
        this.method = method;
        this.methodId = methodId;
        this.limits = limits;
    }

    public MethodInfo method() {
        return method;
    }

    public String methodId() {
        return methodId;
    }

    public MethodLimits limits() {
        return limits;
    }
}
