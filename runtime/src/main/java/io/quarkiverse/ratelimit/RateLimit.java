package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * A limit defined in code, for {@link RateLimiter}: the programmatic counterpart of {@link RateLimited}. Immutable;
 * validated when built.
 *
 * <pre>
 * static final RateLimit EMAILS = RateLimit.of("emails", 100, Duration.ofHours(1)).algorithm(Algorithm.FIXED_WINDOW);
 * </pre>
 *
 * A limit with the same name as an annotated one shares its counter.
 */
public final class RateLimit {

    private final String name;
    private final long limit;
    private final Duration window;
    private final Algorithm algorithm;
    private final FailureMode failureMode;
    private final long burst;
    private final Duration maxWait;

    private RateLimit(String name, long limit, Duration window, Algorithm algorithm, FailureMode failureMode,
            long burst, Duration maxWait) {
        this.maxWait = maxWait;
        this.name = name;
        this.limit = limit;
        this.window = window;
        this.algorithm = algorithm;
        this.failureMode = failureMode;
        this.burst = burst;
    }

    /**
     * @param name letters, digits, {@code .}, {@code _} and {@code -}; at most 100 characters
     * @param limit calls (units) per window, greater than zero
     * @param window at least one millisecond
     */
    public static RateLimit of(String name, long limit, Duration window) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(window, "window");
        LimitRules.require("name \"" + name + "\"", LimitRules.name(name));
        LimitRules.require("Rate limit '" + name + "' has limit " + limit, LimitRules.limit(limit));
        LimitRules.require("Rate limit '" + name + "' has window " + window, LimitRules.durationMillis(window.toMillis()));
        return new RateLimit(name, limit, window, Algorithm.SLIDING_WINDOW_COUNTER, FailureMode.DEFAULT, 0,
                Duration.ZERO);
    }

    /** The algorithm; the limit, and a burst and a maximum wait set earlier, must suit it. */
    public RateLimit algorithm(Algorithm algorithm) {
        LimitRules.require("Rate limit '" + name + "' has limit " + limit, LimitRules.limit(limit, algorithm));
        LimitRules.require("Rate limit '" + name + "' has burst " + burst, LimitRules.burst(burst, algorithm));
        LimitRules.require("Rate limit '" + name + "' has maxWait " + maxWait,
                LimitRules.maxWait(maxWait.toMillis(), algorithm));
        return new RateLimit(name, limit, window, Objects.requireNonNull(algorithm, "algorithm"), failureMode, burst,
                maxWait);
    }

    public RateLimit failureMode(FailureMode failureMode) {
        return new RateLimit(name, limit, window, algorithm, Objects.requireNonNull(failureMode, "failureMode"), burst,
                maxWait);
    }

    /**
     * How long {@link RateLimiter#acquire} may wait for a later slot instead of being refused (see
     * {@link RateLimited#maxWait()}); {@link Duration#ZERO}, the default, for never. {@link Algorithm#TOKEN_BUCKET} and
     * {@link Algorithm#GCRA} only: set the algorithm first. {@code tryAcquire} never waits.
     */
    public RateLimit maxWait(Duration maxWait) {
        Objects.requireNonNull(maxWait, "maxWait");
        LimitRules.require("Rate limit '" + name + "' has maxWait " + maxWait,
                LimitRules.maxWait(maxWait.isNegative() ? -1 : maxWait.toMillis(), algorithm));
        return new RateLimit(name, limit, window, algorithm, failureMode, burst, maxWait);
    }

    /** {@link Duration#ZERO} when not set: {@link RateLimiter#acquire} does not wait. */
    public Duration maxWait() {
        return maxWait;
    }

    /**
     * Units allowed at once for {@link Algorithm#TOKEN_BUCKET} and {@link Algorithm#GCRA} (see RateLimited#burst); set
     * the algorithm first.
     */
    public RateLimit burst(long burst) {
        LimitRules.require("Rate limit '" + name + "' has burst " + burst, LimitRules.burst(burst, algorithm));
        return new RateLimit(name, limit, window, algorithm, failureMode, burst, maxWait);
    }

    /** 0 when not set: the limit. */
    public long burst() {
        return burst;
    }

    public String name() {
        return name;
    }

    public long limit() {
        return limit;
    }

    public Duration window() {
        return window;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    public FailureMode failureMode() {
        return failureMode;
    }

    @Override
    public String toString() {
        return name + " (" + limit + " per " + window + ", " + algorithm + ")";
    }
}
