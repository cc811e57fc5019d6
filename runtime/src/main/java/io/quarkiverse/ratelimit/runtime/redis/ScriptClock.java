package io.quarkiverse.ratelimit.runtime.redis;

/**
 * The clock the scripts decide by, as their first argument: Redis {@code TIME} ({@link ScriptArguments#REDIS_CLOCK}),
 * the one clock every instance agrees on. Only the test clock of a {@code @QuarkusTest} ({@code RateLimitTestClock})
 * sends another; which one an application has is chosen when it is built.
 */
public interface ScriptClock {

    /** The scripts' clock argument: {@link ScriptArguments#REDIS_CLOCK}, or now in microseconds. */
    String now();

    /**
     * This instance's monotonic time in nanoseconds ({@link System#nanoTime()}), moved with the scripts' clock: what
     * runs out in the instance (a reservation's lease) runs out when the test clock is advanced, as Redis's state does.
     */
    default long nanoTime() {
        return System.nanoTime();
    }

    /** Redis's own clock: every application but a {@code @QuarkusTest}. */
    final class RedisTime implements ScriptClock {

        @Override
        public String now() {
            return ScriptArguments.REDIS_CLOCK;
        }
    }
}
