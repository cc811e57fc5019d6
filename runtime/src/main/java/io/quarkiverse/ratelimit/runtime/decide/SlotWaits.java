package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.resilience.DirectUni;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Vertx;

/**
 * The wait of a call Redis admitted for a later slot ({@code maxWait}): on a Vert.x timer, so no thread is held
 * meanwhile (a blocking caller waits on its own thread, for the {@code Uni}). A wait given up (the subscriber cancels)
 * gives the slot back at once, so that the calls queued behind it move up. Only calls whose limits may wait come here:
 * the others are answered in the decision's own step.
 */
@Singleton
public class SlotWaits {

    private final Vertx vertx;
    private final UpstreamPauses pauses;
    private final AtomicInteger waiting = new AtomicInteger();

    SlotWaits(Vertx vertx, UpstreamPauses pauses) {
        this.vertx = vertx;
        this.pauses = pauses;
    }

    /** How many calls of this instance wait for their slot now (Dev UI). */
    public int waiting() {
        return waiting.get();
    }

    /**
     * The answer to what {@code decided} emits: at once when the call proceeds at once or is refused, after its wait
     * when Redis reserved a later slot for it.
     *
     * @param keys the limits' keys: a call whose limits an upstream paused after its decision does not go at its slot
     *        ({@link UpstreamPauses})
     * @param waitMillis how long a decision's call waits (0: it does not)
     * @param giveBack returns a waiting call's slot, when its wait is given up
     * @param revoked the decision refused after all, with the pause's remaining time as its retry time
     */
    <D, R> Uni<R> answered(Uni<D> decided, List<String> keys, ToLongFunction<D> waitMillis, Function<D, R> answer,
            Consumer<D> giveBack, BiFunction<D, Duration, D> revoked) {
        return DirectUni.emitting(emission -> decided.subscribe().withSubscriber(new UniSubscriber<D>() {
            @Override
            public void onSubscribe(UniSubscription subscription) {
                emission.onCancel(subscription::cancel);
            }

            @Override
            public void onItem(D decision) {
                long wait = waitMillis.applyAsLong(decision);
                if (wait <= 0) {
                    emission.emit(() -> answer.apply(decision));
                    return;
                }
                long pausesHeard = pauses.heard();
                waiting.incrementAndGet();
                long timer = vertx.setTimer(wait, fired -> {
                    waiting.decrementAndGet();
                    Duration paused = pauses.revoking(keys, pausesHeard);
                    emission.emit(() -> answer.apply(paused == null ? decision : revoked.apply(decision, paused)));
                });
                emission.onCancel(() -> {
                    if (vertx.cancelTimer(timer)) {
                        waiting.decrementAndGet();
                        giveBack.accept(decision);
                    }
                });
            }

            @Override
            public void onFailure(Throwable failure) {
                emission.fail(failure);
            }
        }));
    }
}
