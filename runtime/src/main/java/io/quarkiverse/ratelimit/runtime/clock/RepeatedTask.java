package io.quarkiverse.ratelimit.runtime.clock;

import java.util.function.Consumer;

/**
 * A task repeated on the instance's clock: each run is given what to call once it ended, and the next run is set a
 * period after that, so runs never overlap however long one takes; {@link #stop} ends it for good, its pending timer
 * cancelled. The fleet's heartbeat and the refused callers' reports run so.
 */
public final class RepeatedTask {

    private final InstanceClock clock;
    private final long periodMillis;
    private final Consumer<Runnable> task;
    private volatile long timer = -1;
    private volatile boolean stopped;

    /** @param task one run, given what to call once it ended (success or failure alike) */
    public RepeatedTask(InstanceClock clock, long periodMillis, Consumer<Runnable> task) {
        this.clock = clock;
        this.periodMillis = periodMillis;
        this.task = task;
    }

    /** Runs the task now, then a period after each run ended. */
    public void runNow() {
        if (!stopped) {
            task.accept(this::next);
        }
    }

    /** Runs the task a period from now, then a period after each run ended. */
    public void runLater() {
        next();
    }

    /** Whether {@link #stop} was called. */
    public boolean stopped() {
        return stopped;
    }

    /** No run after this one; a run under way ends, and sets no next one. */
    public void stop() {
        stopped = true;
        long pending = timer;
        if (pending >= 0) {
            clock.cancelTimer(pending);
            timer = -1;
        }
    }

    private void next() {
        if (!stopped) {
            timer = clock.setTimer(periodMillis, this::runNow);
        }
    }
}
