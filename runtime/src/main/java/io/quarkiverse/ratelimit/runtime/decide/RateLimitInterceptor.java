package io.quarkiverse.ratelimit.runtime.decide;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * Admits a call of a {@link RateLimited} method before it runs. On the event loop, the decision is chained before
 * the method's {@code Uni}, {@code Multi} or {@code CompletionStage} and the event loop never waits; on a worker
 * thread the decision is awaited there.
 */
@RateLimited(limit = 1, window = "1s")
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 50)
public class RateLimitInterceptor {

    private final EffectiveLimits methods;
    private final CallAdmitter enforcer;

    RateLimitInterceptor(EffectiveLimits methods, CallAdmitter enforcer) {
        this.methods = methods;
        this.enforcer = enforcer;
    }

    @AroundInvoke
    Object limit(InvocationContext invocation) throws Exception {
        EffectiveMethod method = methods.forMethod(invocation.getMethod());
        MethodLimits limits = method.limits();
        Object[] arguments = limits.getParameters().isEmpty() ? null : invocation.getParameters();
        if (!Context.isOnEventLoopThread()) {
            Admission admission = enforcer.admit(method, arguments).await().indefinitely();
            try {
                return invocation.proceed();
            } catch (Exception e) {
                admission.refundOn(e).await().indefinitely();
                throw e;
            }
        }
        if (limits.getReturnKind() == ReturnKind.SYNCHRONOUS) {
            throw new IllegalStateException("@RateLimited method " + invocation.getMethod()
                    + " returns a plain value but was called on the Vert.x event loop, where the rate-limit decision"
                    + " cannot be awaited: return Uni, Multi or CompletionStage, or let it run on a worker thread");
        }
        Executor caller = CallerContext.current();
        Uni<Admission> admitted = enforcer.admit(method, arguments).emitOn(caller);
        return switch (limits.getReturnKind()) {
            case UNI -> admitted.chain(admission -> RateLimitInterceptor.<Uni<Object>> proceed(invocation,
                    failure -> Uni.createFrom().failure(failure))
                    .onFailure().call(failure -> admission.refundOn(failure).emitOn(caller)));
            case MULTI -> admitted.onItem().transformToMulti(admission -> RateLimitInterceptor.<Multi<Object>> proceed(
                    invocation, failure -> Multi.createFrom().failure(failure))
                    .onFailure().call(failure -> admission.refundOn(failure).emitOn(caller)));
            case COMPLETION_STAGE -> admitted
                    .chain(admission -> Uni.createFrom()
                            .completionStage(RateLimitInterceptor.<CompletionStage<Object>> proceed(invocation,
                                    CompletableFuture::failedFuture))
                            .onFailure().call(failure -> admission.refundOn(failure).emitOn(caller)))
                    .subscribeAsCompletionStage();
            case SYNCHRONOUS -> throw new AssertionError("handled above");
        };
    }

    /** Proceeds, turning a thrown exception into the failure of the method's own reactive type. */
    @SuppressWarnings("unchecked")
    static <T> T proceed(InvocationContext invocation, Function<Exception, T> asFailure) {
        try {
            return (T) invocation.proceed();
        } catch (Exception e) {
            return asFailure.apply(e);
        }
    }
}
