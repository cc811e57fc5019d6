package io.quarkiverse.ratelimit.runtime.lease;

import java.util.Arrays;

/**
 * Which keys' calls come fast enough on this instance to pay for a lease, in bounded memory and a few loads and stores
 * a call: a table of slots, each counting the calls of the last key that took it over one lease duration. A key that
 * reaches the smallest slice in its slot within one duration is hot (and tracked from then on by its own
 * {@link LeaseDemand}); a slot whose key made one call only, or whose duration is over, goes to the next key that hashes
 * to it. So a spread of tenants (most one call a second) costs nothing but its slots' churn, and a hot key gets its
 * slot within a duration or two whatever else shares it.
 * <p>
 * A slot knows its key by the key's hash, and holds only numbers: storing each call's key (a new string) in a
 * long-lived table would cost every call the garbage collector's barrier for an old object pointing at a young one,
 * which made the table a fifth of a decision's time. Two keys with one hash count together, and slots are read and
 * written without locks, a race miscounting a call or two: either makes a key hot a little earlier or later, never a
 * decision wrong (what a lease may admit is decided by Redis).
 */
final class HotKeys {

    private static final int SLOTS = 4096;

    private final int[] hashes = new int[SLOTS];
    private final int[] calls = new int[SLOTS];
    private final long[] since = new long[SLOTS];
    private final long intervalNanos;
    private final int threshold;

    HotKeys(long intervalNanos, int threshold, long nowNanos) {
        this.intervalNanos = intervalNanos;
        this.threshold = threshold;
        Arrays.fill(since, nowNanos - intervalNanos); // every slot free
    }

    /** Counts a call of {@code key}; whether its calls reached the threshold within one interval. */
    boolean arrived(String key, long nowNanos) {
        int hash = key.hashCode();
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        boolean current = nowNanos - since[slot] < intervalNanos;
        if (current && hashes[slot] == hash) {
            return ++calls[slot] >= threshold;
        }
        if (!current || calls[slot] <= 1) {
            hashes[slot] = hash;
            calls[slot] = 1;
            since[slot] = nowNanos;
            return threshold <= 1;
        }
        return false;
    }
}
