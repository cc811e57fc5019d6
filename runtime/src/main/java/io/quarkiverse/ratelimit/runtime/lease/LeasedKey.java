package io.quarkiverse.ratelimit.runtime.lease;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/** One key's leasing on this instance: its current slice, whether a lease is being asked for, and its demand. */
final class LeasedKey {

    final AtomicReference<Slice> slice = new AtomicReference<>();
    /** Set while a lease request is out: one at a time per key, so that one instance holds one slice of a key. */
    final AtomicBoolean asking = new AtomicBoolean();
    final LeaseDemand demand;

    /** A key that became hot at {@code nowNanos}, {@code units} asked for in the interval so far. */
    LeasedKey(long leaseNanos, long nowNanos, long units) {
        this.demand = new LeaseDemand(leaseNanos, nowNanos, units);
    }
}
