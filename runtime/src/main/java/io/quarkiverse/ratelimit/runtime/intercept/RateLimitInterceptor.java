package io.quarkiverse.ratelimit.runtime.intercept;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.runtime.admitted.Admission;
import io.quarkiverse.ratelimit.runtime.admitted.GuardedCall;
import io.quarkiverse.ratelimit.runtime.decide.CallAdmitter;
import io.quarkiverse.ratelimit.runtime.decide.CallResolver;
import io.quarkiverse.ratelimit.runtime.decide.DispatchDecisions;
import io.quarkiverse.ratelimit.runtime.http.RateLimitHeaders;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Decides a call of a {@link RateLimited} method before it runs ({@link CallAdmitter}), in the shape both interceptors
 * share ({@link GuardedCall}): a failed call can be refunded. A REST endpoint's call was usually decided before
 * dispatch already ({@code RateLimitRequestFilter}): then only its admission is kept, for refunds. A refusal is a
 * {@link io.quarkiverse.ratelimit.RateLimitExceededException}; the rate-limit headers go on the HTTP response, if the
 * call is part of a request.
 */
@RateLimited(limit = 1, window = "1s")
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 50)
public class RateLimitInterceptor {

    private final EffectiveLimits methods;
    private final CallResolver calls;
    private final CallAdmitter admitter;
    private final RequestTenantResolver tenants;

    RateLimitInterceptor(EffectiveLimits methods, CallResolver calls, CallAdmitter admitter,
            RequestTenantResolver tenants) {
        this.methods = methods;
        this.calls = calls;
        this.admitter = admitter;
        this.tenants = tenants;
    }

    @AroundInvoke
    Object limit(InvocationContext invocation) throws Exception {
        EffectiveMethod method = methods.forMethod(invocation.getMethod());
        RoutingContext request = tenants.currentRequest();
        Admission admitted = DispatchDecisions.take(request, method);
        if (admitted != null) {
            return admitted.holdsNothing() ? invocation.proceed()
                    : GuardedCall.proceed(invocation, method.limits().getReturnKind(),
                            () -> Uni.createFrom().item(admitted), "@RateLimited");
        }
        Object[] arguments = method.limits().getParameters().isEmpty() ? null : invocation.getParameters();
        return GuardedCall.proceed(invocation, method.limits().getReturnKind(),
                () -> DirectUni.mapped(DirectUni.chained(calls.resolve(method, request, arguments), admitter::decide),
                        decision -> {
                            if (request != null) {
                                RateLimitHeaders.attach(request, decision);
                            }
                            if (!decision.admitted()) {
                                throw decision.refusal();
                            }
                            return decision.admission();
                        }),
                "@RateLimited");
    }
}
