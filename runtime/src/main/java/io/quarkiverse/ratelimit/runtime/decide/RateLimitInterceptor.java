package io.quarkiverse.ratelimit.runtime.decide;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;

/**
 * Admits a call of a {@link RateLimited} method before it runs ({@link CallAdmitter}), in the shape both interceptors
 * share ({@link GuardedCall}): a failed call can be refunded.
 */
@RateLimited(limit = 1, window = "1s")
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 50)
public class RateLimitInterceptor {

    private final EffectiveLimits methods;
    private final CallAdmitter admitter;

    RateLimitInterceptor(EffectiveLimits methods, CallAdmitter admitter) {
        this.methods = methods;
        this.admitter = admitter;
    }

    @AroundInvoke
    Object limit(InvocationContext invocation) throws Exception {
        EffectiveMethod method = methods.forMethod(invocation.getMethod());
        Object[] arguments = method.limits().getParameters().isEmpty() ? null : invocation.getParameters();
        return GuardedCall.proceed(invocation, method.limits().getReturnKind(),
                () -> admitter.admit(method, arguments), "@RateLimited");
    }
}
