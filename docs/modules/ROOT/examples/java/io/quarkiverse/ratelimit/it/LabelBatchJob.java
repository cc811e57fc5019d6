package io.quarkiverse.ratelimit.it;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.rest.client.inject.RestClient;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * A scheduled job that sends the labels of the batches handed to it, in the same fleet-wide queue of the carrier's
 * quota as the gateway's requests and the queue's consumer ({@link LabelOrderConsumer}): each label takes its turn, and
 * one whose turn is beyond the limit's {@code maxWait} asks again at the retry time. A run that has not finished when
 * the next one is due lets it pass.
 */
// tag::job[]
@ApplicationScoped
public class LabelBatchJob {

    private final Queue<String> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong sent = new AtomicLong();

    @RestClient
    CarrierApi carrier; // @RateLimited(name = "carrier-api", ..., maxWait = "2s"): the gateway's queue

    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sendPendingLabels() {
        return Multi.createFrom().<String> emitter(emitter -> {
            for (String label = pending.poll(); label != null; label = pending.poll()) {
                emitter.emit(label);
            }
            emitter.complete();
        }).onItem().transformToUniAndConcatenate(label -> LabelOrderConsumer.inTurn(carrier::createLabel)
                .invoke(sent::incrementAndGet))
                .collect().last().replaceWithVoid();
    }
    // end::job[]

    /** Hands a batch to the job: its labels are sent at its next run. */
    public void add(String label) {
        pending.add(label);
    }

    /** Labels the job sent so far. */
    public long sent() {
        return sent.get();
    }
}
