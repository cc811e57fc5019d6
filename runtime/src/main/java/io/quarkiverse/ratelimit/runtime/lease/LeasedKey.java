package io.quarkiverse.ratelimit.runtime.lease;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.vertx.core.Future;
import io.vertx.core.Promise;

/** One key's leasing on this instance: its current slice, whether a lease is being asked for, and its demand. */
final class LeasedKey {

    final AtomicReference<Slice> slice = new AtomicReference<>();
    /**
     * The lease request out, completed once its slice is in place; {@code null} when none is: one at a time per key, so
     * that one instance holds one slice of a key.
     */
    final AtomicReference<Future<Void>> taking = new AtomicReference<>();
    final LeaseDemand demand;
    /**
     * Until when (leases' clock) other instances' slices of the key are known to hold units Redis recalled: a call
     * refused meanwhile waits for them ({@link #givenBack}).
     */
    volatile long recalledUntilNanos;
    /**
     * How many changes of the key's count this instance heard (slices given back, refunds): a call that read it before
     * its request knows whether one came while it was on its way.
     */
    final AtomicLong changes = new AtomicLong();

    /** A recall asked of Redis (what the other instances' slices hold), {@code null} when none is: one at a time. */
    final AtomicReference<Future<Long>> recalling = new AtomicReference<>();
    /** Completed when the key's count changes next (a slice given back); {@code null} while nobody waits for it. */
    final AtomicReference<Promise<Void>> givenBack = new AtomicReference<>();

    /** A key that became hot at {@code nowNanos}, {@code units} asked for in the interval so far. */
    LeasedKey(long leaseNanos, long nowNanos, long units) {
        this.demand = new LeaseDemand(leaseNanos, nowNanos, units);
    }
}
