package io.quarkiverse.ratelimit.deployment;

import org.jboss.jandex.MethodInfo;

import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkus.builder.item.MultiBuildItem;

/** A method with a valid {@code @ConcurrencyLimited} (its own or its class's). */
public final class ConcurrencyLimitedMethodBuildItem extends MultiBuildItem {

    private final MethodInfo method;
    private final String methodId;
    private final ConcurrencyDefinition limit;

    public ConcurrencyLimitedMethodBuildItem(MethodInfo method, String methodId, ConcurrencyDefinition limit) {
        this.method = method;
        this.methodId = methodId;
        this.limit = limit;
    }

    public MethodInfo method() {
        return method;
    }

    public String methodId() {
        return methodId;
    }

    public ConcurrencyDefinition limit() {
        return limit;
    }
}
