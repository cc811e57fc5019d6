package io.quarkiverse.ratelimit.runtime.redis;

/**
 * The clock the scripts decide by, as their first argument: Redis {@code TIME} ({@link ScriptArguments#REDIS_CLOCK}),
 * the one clock every instance agrees on. Only the test clock of a {@code @QuarkusTest} ({@code RateLimitTestClock})
 * sends another; which one an application has is chosen when it is built.
 */
public interface ScriptClock {

    /** The scripts' clock argument: {@link ScriptArguments#REDIS_CLOCK}, or now in microseconds. */
    String now();

    /** Redis's own clock: every application but a {@code @QuarkusTest}. */
    final class RedisTime implements ScriptClock {

        @Override
        public String now() {
            return ScriptArguments.REDIS_CLOCK;
        }
    }
}
