package io.quarkiverse.ratelimit;

import io.smallrye.mutiny.Uni;

/** One held slot of a {@link ConcurrencyLimit}: release it when the work ends (releasing twice does nothing). */
public interface ConcurrencySlot {

    Uni<Void> release();

    /** Blocking {@link #release()}: waits on the calling thread, never on an event loop. */
    default void releaseAndAwait() {
        release().await().indefinitely();
    }
}
