package io.quarkiverse.ratelimit.runtime.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/** The decision path's Unis keep the Uni contract: lazy, run again per subscription, one signal, none after cancel. */
class DirectUniTest {

    @Test
    void nothingRunsUntilSubscribedAndEachSubscriptionRunsAgain() {
        AtomicInteger runs = new AtomicInteger();
        Uni<Integer> uni = DirectUni.computed(runs::incrementAndGet);
        assertThat(runs).hasValue(0);

        assertThat(uni.await().atMost(Duration.ofSeconds(1))).isEqualTo(1);
        assertThat(uni.await().atMost(Duration.ofSeconds(1))).isEqualTo(2);
    }

    @Test
    void aDeferredUniIsBuiltWhenSubscribedWhateverItIs() {
        AtomicInteger checks = new AtomicInteger();
        Uni<Integer> direct = DirectUni.deferred(() -> DirectUni.computed(checks::incrementAndGet));
        Uni<Integer> other = DirectUni.deferred(() -> Uni.createFrom().item(checks.incrementAndGet() * 10));
        assertThat(checks).hasValue(0);
        assertThat(direct.await().atMost(Duration.ofSeconds(1))).isEqualTo(1);
        assertThat(other.await().atMost(Duration.ofSeconds(1))).isEqualTo(20);
        Uni<Integer> refused = DirectUni.deferred(() -> {
            throw new IllegalStateException("blocked");
        });
        assertThatThrownBy(() -> refused.await().atMost(Duration.ofSeconds(1))).hasMessage("blocked");
    }

    @Test
    void whatTheComputationThrowsIsTheFailure() {
        Uni<Integer> uni = DirectUni.computed(() -> {
            throw new IllegalStateException("refused");
        });
        assertThatThrownBy(() -> uni.await().atMost(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class)
                .hasMessage("refused");
    }

    @Test
    void onlyTheFirstSignalIsDelivered() {
        Recorder signals = new Recorder();
        ((DirectUni<String>) DirectUni.<String> emitting(emission -> {
            emission.emit(() -> "first");
            emission.emit(() -> "second");
            emission.fail(new IllegalStateException());
        })).subscribe(signals);

        assertThat(signals.received).containsExactly("subscribed", "first");
    }

    @Test
    void aCancelledSubscriptionGetsNothing() {
        AtomicReference<DirectUni.Emission<String>> later = new AtomicReference<>();
        Recorder signals = new Recorder();
        ((DirectUni<String>) DirectUni.<String> emitting(later::set)).subscribe(signals);

        signals.subscription.cancel();
        later.get().emit(() -> "too late");
        later.get().fail(new IllegalStateException());

        assertThat(signals.received).containsExactly("subscribed");
    }

    @Test
    void aMappedUniMapsEachSubscriptionsItemAndFailsWithWhatTheMapThrows() {
        AtomicInteger runs = new AtomicInteger();
        Uni<String> mapped = DirectUni.mapped(DirectUni.computed(runs::incrementAndGet), n -> "call " + n);
        assertThat(runs).hasValue(0);
        assertThat(mapped.await().atMost(Duration.ofSeconds(1))).isEqualTo("call 1");
        assertThat(mapped.await().atMost(Duration.ofSeconds(1))).isEqualTo("call 2");

        Uni<String> refused = DirectUni.mapped(Uni.createFrom().item(1), n -> {
            throw new IllegalStateException("refused " + n);
        });
        assertThatThrownBy(() -> refused.await().atMost(Duration.ofSeconds(1))).hasMessage("refused 1");
        Uni<String> failed = DirectUni.mapped(Uni.createFrom().<Integer> failure(new IllegalStateException("down")),
                n -> "never");
        assertThatThrownBy(() -> failed.await().atMost(Duration.ofSeconds(1))).hasMessage("down");
    }

    @Test
    void aChainedUniSubscribesToWhatTheStepMakesOfTheItem() {
        Uni<String> direct = DirectUni.chained(DirectUni.computed(() -> 2), n -> DirectUni.computed(() -> "x" + n));
        Uni<String> other = DirectUni.chained(Uni.createFrom().item(3), n -> Uni.createFrom().item("y" + n));
        assertThat(direct.await().atMost(Duration.ofSeconds(1))).isEqualTo("x2");
        assertThat(other.await().atMost(Duration.ofSeconds(1))).isEqualTo("y3");
        Uni<String> refused = DirectUni.chained(DirectUni.computed(() -> 2), n -> {
            throw new IllegalStateException("blocked");
        });
        assertThatThrownBy(() -> refused.await().atMost(Duration.ofSeconds(1))).hasMessage("blocked");
    }

    @Test
    void cancellingAMappedOrChainedUniCancelsTheStepItWaitsOn() {
        AtomicReference<DirectUni.Emission<String>> first = new AtomicReference<>();
        AtomicInteger cancelled = new AtomicInteger();
        Uni<String> source = DirectUni.emitting(emission -> {
            first.set(emission);
            emission.onCancel(cancelled::incrementAndGet);
        });
        Recorder signals = new Recorder();
        ((DirectUni<String>) DirectUni.mapped(source, String::toUpperCase)).subscribe(signals);
        signals.subscription.cancel();
        first.get().emit(() -> "too late");
        assertThat(cancelled).hasValue(1);
        assertThat(signals.received).containsExactly("subscribed");

        AtomicReference<DirectUni.Emission<String>> second = new AtomicReference<>();
        Recorder chainedSignals = new Recorder();
        ((DirectUni<String>) DirectUni.chained(DirectUni.computed(() -> "a"), item -> DirectUni.<String> emitting(
                emission -> {
                    second.set(emission);
                    emission.onCancel(cancelled::incrementAndGet);
                }))).subscribe(chainedSignals);
        chainedSignals.subscription.cancel();
        second.get().emit(() -> "too late");
        assertThat(cancelled).hasValue(2);
        assertThat(chainedSignals.received).containsExactly("subscribed");
    }

    /** Every signal, as it comes: no Mutiny subscriber in between, which would drop late signals itself. */
    private static final class Recorder implements UniSubscriber<String> {

        final List<Object> received = new ArrayList<>();
        UniSubscription subscription;

        @Override
        public void onSubscribe(UniSubscription subscription) {
            this.subscription = subscription;
            received.add("subscribed");
        }

        @Override
        public void onItem(String item) {
            received.add(item);
        }

        @Override
        public void onFailure(Throwable failure) {
            received.add(failure);
        }
    }
}
