package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * At most {@code permits} Redis operations in flight; the others wait, without a thread, in arrival order. A permit is
 * held until the operation itself ends, even when its caller stopped waiting (timeout), because until then it holds a
 * pooled connection.
 */
final class InFlightLimit {

    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private int available;

    InFlightLimit(int permits) {
        this.available = permits;
    }

    <T> Uni<T> run(Supplier<Uni<T>> operation) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean terminated = new AtomicBoolean();
            emitter.onTermination(() -> terminated.set(true));
            acquire(() -> start(operation, emitter, terminated));
        });
    }

    private <T> void start(Supplier<Uni<T>> operation, UniEmitter<? super T> emitter, AtomicBoolean terminated) {
        if (terminated.get()) {
            // the caller stopped waiting (timeout) before its turn came
            release();
            return;
        }
        operation.get().subscribe().with(
                item -> {
                    release();
                    emitter.complete(item);
                },
                failure -> {
                    release();
                    emitter.fail(failure);
                });
    }

    private void acquire(Runnable start) {
        synchronized (this) {
            if (available == 0) {
                waiting.add(start);
                return;
            }
            available--;
        }
        start.run();
    }

    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                available++;
                return;
            }
        }
        next.run();
    }
}
