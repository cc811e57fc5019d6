package io.quarkiverse.ratelimit.it;

import java.time.Duration;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import io.smallrye.common.annotation.Blocking;

import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.smallrye.mutiny.Uni;

/**
 * Labels generated from a queue of orders, in the same fleet-wide queue of the carrier's quota as the gateway's
 * requests: the limit is on the REST Client ({@link CarrierApi}), so every caller of it takes its turn there, an
 * endpoint, this consumer, a scheduled job alike. A worker of a queue does not give up when its turn is further than
 * the limit's {@code maxWait}, nor when the carrier refused it anyway: it asks again later, and the next message
 * waits meanwhile.
 */
// tag::consumer[]
@ApplicationScoped
public class LabelOrderConsumer {

    @RestClient
    CarrierApi carrier; // @RateLimited(name = "carrier-api", ..., maxWait = "2s"): the gateway's queue

    @Incoming("label-orders")
    @Blocking // one order at a time, on a worker thread: the next order waits meanwhile
    public void generate(String order) {
        inTurn(carrier::createLabel).await().indefinitely();
    }

    /**
     * The call in its turn: when that is beyond the limit's maxWait, asked for again at the retry time; when the
     * carrier refused it anyway, asked for again a second later (the carrier's pause holds the queue meanwhile).
     */
    static <T> Uni<T> inTurn(Supplier<Uni<T>> call) {
        return Uni.createFrom().deferred(call::get)
                .onFailure(failure -> failure instanceof RateLimitExceededException
                        || CarrierRefusals.refusedByCarrier(failure))
                .recoverWithUni(refused -> {
                    Duration retryAfter = refused instanceof RateLimitExceededException limit ? limit.retryAfter() : null;
                    return Uni.createFrom().voidItem().onItem()
                            .delayIt().by(retryAfter == null ? Duration.ofSeconds(1) : retryAfter)
                            .chain(() -> inTurn(call));
                });
    }
}
// end::consumer[]
