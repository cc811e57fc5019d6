package io.quarkiverse.ratelimit.runtime.clock;

/**
 * This instance's own time and timers, as the Java side reads them: when a waiting call's slot comes, how long a pause
 * holds, when a wait runs out. One seam, so that a unit test drives the time instead of waiting for it
 * ({@code DrivenClock} in the runtime's tests); an application runs on {@link VertxClock}. (The limits' windows and
 * buckets run on Redis {@code TIME}, which the test clock of a {@code @QuarkusTest} moves instead.)
 */
public interface InstanceClock {

    /** Monotonic time in nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /**
     * Wall time in milliseconds since the epoch, as {@link System#currentTimeMillis()}: for what lines up with the
     * calendar or with Redis {@code TIME} (a window's start, a date an upstream answered), never for a duration.
     */
    long currentTimeMillis();

    /** Runs {@code action} once, no earlier than {@code delayMillis} from now; returns the timer's id. */
    long setTimer(long delayMillis, Runnable action);

    /** Cancels a timer; whether it was still pending (then its action never runs). */
    boolean cancelTimer(long id);
}
