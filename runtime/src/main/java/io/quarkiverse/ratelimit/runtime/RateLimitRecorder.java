package io.quarkiverse.ratelimit.runtime;

import java.util.Map;
import java.util.function.Supplier;

import io.quarkus.runtime.annotations.Recorder;

@Recorder
public class RateLimitRecorder {

    public Supplier<RateLimitedMethods> rateLimitedMethods(Map<String, MethodLimits> byMethodId,
            Map<String, ConcurrencyDefinition> concurrencyByMethodId, boolean tokensAvailable) {
        RateLimitedMethods methods = new RateLimitedMethods(byMethodId, concurrencyByMethodId, tokensAvailable);
        return () -> methods;
    }
}
