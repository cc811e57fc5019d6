package io.quarkiverse.ratelimit.runtime.admitted;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.interceptor.InvocationContext;

import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The one shape of both interceptors: a {@link Guard} (a rate-limit {@link Admission}, a concurrency lease) is taken
 * before the method runs and is told how it ended. On a worker thread the guard is awaited there; on the event loop it
 * is chained before the method's {@code Uni}, {@code Multi} or {@code CompletionStage}, so the event loop never waits,
 * and what follows a Redis reply runs back on the caller's Vert.x context.
 */
public final class GuardedCall {

    /** What a call holds while the method runs. */
    public interface Guard {

        /** The method failed (threw, or its result failed): completes before the caller sees the failure. */
        Uni<Void> failed(Throwable failure);

        /**
         * The method ended otherwise: returned, completed or was cancelled.
         *
         * @param result what it returned or its {@code Uni} / {@code CompletionStage} emitted; {@code null} for a
         *        {@code Multi}, a cancellation or a {@code void} method
         */
        Uni<Void> ended(Object result);

        /**
         * Whether the guard need not be told how the call ends (most admissions): the call then runs without an
         * end-of-call step, which would cost every call a Mutiny step and a context switch back.
         */
        boolean holdsNothing();

        /** Whether the guard is told each item of a {@code Multi} ({@link #streamed}). */
        default boolean countsItems() {
            return false;
        }

        /** An item the method's {@code Multi} emitted (only when {@link #countsItems()}). */
        default void streamed(Object item) {
        }
    }

    private GuardedCall() {
    }

    /**
     * @param guard takes the guard; fails (a refusal) when the call must not run
     * @param annotation the interceptor binding, for the error when a synchronous method runs on the event loop
     */
    public static Object proceed(InvocationContext invocation, ReturnKind returnKind, Supplier<Uni<? extends Guard>> guard,
            String annotation) throws Exception {
        if (returnKind == ReturnKind.SYNCHRONOUS && !Context.isOnEventLoopThread()) {
            return proceedBlocking(invocation, guard.get().await().indefinitely());
        }
        if (returnKind == ReturnKind.SYNCHRONOUS) {
            throw new IllegalStateException(annotation + " method " + invocation.getMethod() + " returns a plain value"
                    + " but was called on the Vert.x event loop, where the decision cannot be awaited: return Uni,"
                    + " Multi or CompletionStage, or let it run on a worker thread");
        }
        // a reactive result stays lazy wherever it is called from: decided, waited for and run when subscribed
        // (a Uni built now and subscribed later must not have spent its slot meanwhile). The method goes on in the
        // caller's event-loop context (a worker thread of a request has one); a thread outside Vert.x, or a worker
        // context (whose ordered tasks would queue behind a caller awaiting this), gets a worker thread instead
        Context context = Vertx.currentContext();
        Executor caller = context != null && context.isEventLoopContext() ? CallerContext.current()
                : Infrastructure.getDefaultWorkerPool();
        Uni<? extends Guard> held = guard.get().emitOn(caller);
        return switch (returnKind) {
            case UNI -> held.chain(g -> guarded(invocation, g, caller));
            case MULTI -> held.onItem().transformToMulti(g -> guardedMulti(invocation, g, caller));
            case COMPLETION_STAGE -> held.chain(g -> guardedStage(invocation, g, caller)).subscribeAsCompletionStage();
            case SYNCHRONOUS -> throw new AssertionError("handled above");
        };
    }

    /** The method's {@code Uni}, telling the guard how it ended; {@code caller}: where to end (null: where it ends). */
    private static Uni<Object> guarded(InvocationContext invocation, Guard guard, Executor caller) {
        Uni<Object> result = GuardedCall.<Uni<Object>> invoke(invocation, Uni.createFrom()::failure);
        return guard.holdsNothing() ? result
                : result.onTermination().call((item, failure, cancelled) -> end(guard, item, failure, caller));
    }

    private static Multi<Object> guardedMulti(InvocationContext invocation, Guard guard, Executor caller) {
        Multi<Object> result = GuardedCall.<Multi<Object>> invoke(invocation, Multi.createFrom()::failure);
        if (guard.holdsNothing()) {
            return result;
        }
        return (guard.countsItems() ? result.onItem().invoke(guard::streamed) : result).onTermination()
                .call((failure, cancelled) -> end(guard, null, failure, caller));
    }

    private static Uni<Object> guardedStage(InvocationContext invocation, Guard guard, Executor caller) {
        Uni<Object> result = Uni.createFrom().completionStage(
                GuardedCall.<CompletionStage<Object>> invoke(invocation, CompletableFuture::failedFuture));
        return guard.holdsNothing() ? result
                : result.onTermination().call((item, failure, cancelled) -> end(guard, item, failure, caller));
    }

    private static Object proceedBlocking(InvocationContext invocation, Guard guard) throws Exception {
        if (guard.holdsNothing()) {
            return invocation.proceed();
        }
        Object result = null;
        boolean failed = false;
        try {
            result = invocation.proceed();
            return result;
        } catch (Exception e) {
            failed = true;
            guard.failed(e).await().indefinitely();
            throw e;
        } finally {
            if (!failed) {
                guard.ended(result).await().indefinitely();
            }
        }
    }

    private static Uni<Void> end(Guard guard, Object result, Throwable failure, Executor caller) {
        Uni<Void> ended = failure != null ? guard.failed(failure) : guard.ended(result);
        return caller == null ? ended : ended.emitOn(caller);
    }

    /** Proceeds, turning a thrown exception into the failure of the method's own reactive type. */
    @SuppressWarnings("unchecked")
    private static <T> T invoke(InvocationContext invocation, Function<Exception, T> asFailure) {
        try {
            return (T) invocation.proceed();
        } catch (Exception e) {
            return asFailure.apply(e);
        }
    }
}
