package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.util.Objects;

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
        LimitRules.require("name \"" + name + "\"", LimitRules.name(name));
        LimitRules.require("Concurrency limit '" + name + "' has limit " + limit, LimitRules.limit(limit));
        return new ConcurrencyLimit(name, limit, Duration.ofMinutes(1), FailureMode.DEFAULT);
    }

    /** The longest one slot may be held; the slots of a crashed holder are free again after it. */
    public ConcurrencyLimit lease(Duration lease) {
        Objects.requireNonNull(lease, "lease");
        LimitRules.require("Concurrency limit '" + name + "' has lease " + lease, LimitRules.durationMillis(lease.toMillis()));
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
