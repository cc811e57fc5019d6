package io.quarkiverse.ratelimit.runtime.reactive;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * The {@code Uni}s of the decision path, built on Mutiny's {@link AbstractUni} instead of its factories and operators:
 * in a Quarkus application every factory ({@code Uni.createFrom().emitter(...)}, {@code item(Supplier)}) and operator
 * ({@code map}) captures the caller's context when assembled and restores it around its callback (SmallRye Context
 * Propagation), which cost a decision about 15 % of the application's CPU. These run only the extension's own code, so
 * they have no context to carry; the subscriber's own operators still carry theirs.
 * <p>
 * Lazy as any {@code Uni}: nothing runs until subscribed, and each subscription runs again.
 */
public final class DirectUni<T> extends AbstractUni<T> {

    private final Consumer<Emission<T>> start;
    /**
     * For a {@code Uni} whose value is computed at subscription without waiting ({@link #item}, {@link #computed}):
     * that computation, which {@link #mapped} and {@link #chained} run in place instead of subscribing; {@code null}
     * for the others.
     */
    private final Supplier<T> atOnce;

    private DirectUni(Consumer<Emission<T>> start, Supplier<T> atOnce) {
        this.start = start;
        this.atOnce = atOnce;
    }

    /** A {@code Uni} whose subscription calls {@code start}, which emits once through the {@link Emission}. */
    public static <T> Uni<T> emitting(Consumer<Emission<T>> start) {
        return new DirectUni<>(start, null);
    }

    /** {@code value}, emitted to each subscriber. */
    public static <T> Uni<T> item(T value) {
        return computed(() -> value);
    }

    /** The value {@code value} computes when subscribed, or its exception as the failure. */
    public static <T> Uni<T> computed(Supplier<T> value) {
        return new DirectUni<>(emission -> emission.emit(value), value);
    }

    /**
     * The {@code Uni} that {@code next} returns when subscribed (what it throws is the failure): a check made at
     * subscription, not when the {@code Uni} is built.
     */
    public static <T> Uni<T> deferred(Supplier<Uni<T>> next) {
        return new DirectUni<>(emission -> continueWith(next.get(), emission), null);
    }

    /**
     * What {@code source} emits, turned by {@code map} (what it throws is the failure): Mutiny's {@code map} without
     * the context it would capture. For the extension's own steps after a decision, each entry point's answer.
     */
    public static <T, R> Uni<R> mapped(Uni<T> source, Function<? super T, ? extends R> map) {
        if (source instanceof DirectUni<T> direct && direct.atOnce != null) {
            Supplier<T> value = direct.atOnce;
            return computed(() -> map.apply(value.get()));
        }
        return new DirectUni<>(emission -> forward(source, emission, item -> emission.emit(() -> map.apply(item))),
                null);
    }

    /**
     * The {@code Uni} that {@code next} makes of what {@code source} emits (what it throws is the failure): Mutiny's
     * {@code chain} without the context it would capture.
     */
    public static <T, R> Uni<R> chained(Uni<T> source, Function<? super T, Uni<R>> next) {
        if (source instanceof DirectUni<T> direct && direct.atOnce != null) {
            Supplier<T> value = direct.atOnce;
            return deferred(() -> next.apply(value.get()));
        }
        return new DirectUni<>(emission -> forward(source, emission, item -> {
            try {
                continueWith(next.apply(item), emission);
            } catch (RuntimeException e) {
                emission.fail(e);
            }
        }), null);
    }

    /**
     * Lets {@code next} emit through {@code emission}: a {@code DirectUni} is started on it in place, with nothing in
     * between.
     */
    private static <T> void continueWith(Uni<T> next, Emission<T> emission) {
        if (next instanceof DirectUni<T> direct) {
            direct.start.accept(emission);
        } else {
            forward(next, emission, item -> emission.emit(() -> item));
        }
    }

    /**
     * Subscribes to {@code source} for {@code emission}: its item to {@code onItem}, its failure to the emission, the
     * emission's cancellation to it. A {@code DirectUni} is started in place, with no Mutiny subscriber in between
     * (whose subscription would capture the caller's context).
     */
    private static <T> void forward(Uni<T> source, Emission<?> emission, Consumer<T> onItem) {
        UniSubscriber<T> forwarding = new UniSubscriber<>() {
            @Override
            public void onSubscribe(UniSubscription subscription) {
                emission.onCancel(subscription::cancel);
            }

            @Override
            public void onItem(T item) {
                onItem.accept(item);
            }

            @Override
            public void onFailure(Throwable failure) {
                emission.fail(failure);
            }
        };
        if (source instanceof DirectUni<T> direct) {
            direct.subscribe(forwarding);
        } else {
            source.subscribe().withSubscriber(forwarding);
        }
    }

    @Override
    public void subscribe(UniSubscriber<? super T> subscriber) {
        Emission<T> emission = new Emission<>(subscriber);
        subscriber.onSubscribe(emission);
        try {
            start.accept(emission);
        } catch (RuntimeException e) {
            emission.fail(e);
        }
    }

    /** One subscription: its item or failure, delivered once, and nothing after a cancellation. */
    public static final class Emission<T> implements UniSubscription {

        private final UniSubscriber<? super T> subscriber;
        private volatile boolean done;
        private volatile boolean cancelled;
        private volatile Runnable onCancel;

        private Emission(UniSubscriber<? super T> subscriber) {
            this.subscriber = subscriber;
        }

        /** Emits what {@code value} computes, or fails with what it throws. */
        public void emit(Supplier<? extends T> value) {
            if (done) {
                return;
            }
            T item;
            try {
                item = value.get();
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            done = true;
            subscriber.onItem(item);
        }

        public void fail(Throwable failure) {
            if (!done) {
                done = true;
                subscriber.onFailure(failure);
            }
        }

        /** Runs {@code action} when the subscriber cancels (at once if it has); it may run more than once. */
        public void onCancel(Runnable action) {
            onCancel = action;
            if (cancelled) {
                action.run();
            }
        }

        @Override
        public void cancel() {
            done = true;
            cancelled = true;
            Runnable action = onCancel;
            if (action != null) {
                action.run();
            }
        }
    }
}
