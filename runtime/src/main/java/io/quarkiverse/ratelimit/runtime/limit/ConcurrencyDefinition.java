package io.quarkiverse.ratelimit.runtime.limit;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkus.runtime.annotations.RecordableConstructor;

/** One validated {@code @ConcurrencyLimited}, computed at build time and recorded for run time. */
public final class ConcurrencyDefinition {

    private final String name;
    private final int limit;
    private final long leaseMillis;
    private final FailureMode failureMode;
    private final ReturnKind returnKind;

    @RecordableConstructor
    public ConcurrencyDefinition(String name, int limit, long leaseMillis, FailureMode failureMode,
            ReturnKind returnKind) {
        this.name = name;
        this.limit = limit;
        this.leaseMillis = leaseMillis;
        this.failureMode = failureMode;
        this.returnKind = returnKind;
    }

    public String getName() {
        return name;
    }

    public int getLimit() {
        return limit;
    }

    public long getLeaseMillis() {
        return leaseMillis;
    }

    public FailureMode getFailureMode() {
        return failureMode;
    }

    public ReturnKind getReturnKind() {
        return returnKind;
    }
}
