package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.util.Objects;

import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;

/**
 * A concurrency limit defined in code, for {@link RateLimiter#acquireSlot}: the programmatic counterpart of
 * {@link ConcurrencyLimited}. Immutable; validated when built.
 */
public final class ConcurrencyLimit {

    private final String name;
    private final int limit;
    private final Duration lease;
    private final FailureMode failureMode;

    private ConcurrencyLimit(String name, int limit, Duration lease, FailureMode failureMode) {
        this.name = name;
        this.limit = limit;
        this.lease = lease;
        this.failureMode = failureMode;
    }

    /** {@code limit} slots per tenant, each held at most one minute unless {@link #lease(Duration)} says otherwise. */
    public static ConcurrencyLimit of(String name, int limit) {
        Objects.requireNonNull(name, "name");
        if (!RateLimitKeys.isValidName(name)) {
            throw new IllegalArgumentException("A concurrency limit name is 1 to 100 letters, digits, '.', '_' or '-': "
                    + name);
        }
        if (limit <= 0) {
            throw new IllegalArgumentException("Concurrency limit '" + name + "' must allow more than 0, not " + limit);
        }
        return new ConcurrencyLimit(name, limit, Duration.ofMinutes(1), FailureMode.DEFAULT);
    }

    /** The longest one slot may be held; the slots of a crashed holder are free again after it. */
    public ConcurrencyLimit lease(Duration lease) {
        if (lease == null || lease.toMillis() <= 0) {
            throw new IllegalArgumentException("Concurrency limit '" + name + "' needs a lease of at least 1ms: " + lease);
        }
        return new ConcurrencyLimit(name, limit, lease, failureMode);
    }

    public ConcurrencyLimit failureMode(FailureMode failureMode) {
        return new ConcurrencyLimit(name, limit, lease, Objects.requireNonNull(failureMode, "failureMode"));
    }

    public String name() {
        return name;
    }

    public int limit() {
        return limit;
    }

    public Duration lease() {
        return lease;
    }

    public FailureMode failureMode() {
        return failureMode;
    }
}
