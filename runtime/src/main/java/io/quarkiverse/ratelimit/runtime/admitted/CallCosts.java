package io.quarkiverse.ratelimit.runtime.admitted;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.StartupEvent;

/**
 * The {@link CostOf} beans of the application's limits ({@code @RateLimited(costOf)}), by class name, found at
 * start-up: what a call of such a limit really cost, read from its result when it returns.
 */
@Singleton
public class CallCosts {

    private final Map<String, CostOf<Object>> byClass = new ConcurrentHashMap<>();

    void start(@Observes StartupEvent event, EffectiveLimits limits) {
        limits.all().values().forEach(method -> {
            for (LimitDefinition limit : method.limits().getLimits()) {
                if (limit.getCostOf() != null) {
                    byClass.computeIfAbsent(limit.getCostOf(), CallCosts::bean);
                }
            }
        });
    }

    /** What a call of {@code limit} really cost, read from its {@code result}: 0 or more. */
    long of(LimitDefinition limit, Object result) {
        return Math.max(0, byClass.computeIfAbsent(limit.getCostOf(), CallCosts::bean).cost(result));
    }

    @SuppressWarnings("unchecked")
    private static CostOf<Object> bean(String className) {
        try {
            Class<?> type = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            return (CostOf<Object>) Arc.container().instance(type).get();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("The CostOf class " + className + " of a @RateLimited method is gone", e);
        }
    }
}
