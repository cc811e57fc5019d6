package io.quarkiverse.ratelimit.runtime.clock;

import jakarta.inject.Singleton;

import io.vertx.core.Vertx;

/**
 * The instance's clock in an application: {@link System#nanoTime()}, {@link System#currentTimeMillis()} and Vert.x timers,
 * which hold no thread.
 */
@Singleton
public class VertxClock implements InstanceClock {

    private final Vertx vertx;

    VertxClock(Vertx vertx) {
        this.vertx = vertx;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public long setTimer(long delayMillis, Runnable action) {
        return vertx.setTimer(delayMillis, fired -> action.run());
    }

    @Override
    public boolean cancelTimer(long id) {
        return vertx.cancelTimer(id);
    }
}
