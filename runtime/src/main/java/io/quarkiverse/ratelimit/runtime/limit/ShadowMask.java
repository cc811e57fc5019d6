package io.quarkiverse.ratelimit.runtime.limit;

import java.util.ArrayList;
import java.util.List;

/**
 * Which limits of one call are in shadow mode (decided and recorded as if enforced, but their refusal refuses nothing),
 * by their position in the call: at most 64 limits a call.
 */
public final class ShadowMask {

    /** The masks of calls of up to 8 limits, made once: a call in shadow mode allocates none. */
    private static final ShadowMask[] SMALL = new ShadowMask[256];

    static {
        for (int bits = 0; bits < SMALL.length; bits++) {
            SMALL[bits] = new ShadowMask(bits);
        }
    }

    /** Every limit enforced: the usual call. */
    public static final ShadowMask NONE = SMALL[0];

    private final long bits;

    private ShadowMask(long bits) {
        this.bits = bits;
    }

    /** This mask with limit {@code position} in shadow mode too. */
    public ShadowMask with(int position) {
        long with = bits | 1L << position;
        return with < SMALL.length ? SMALL[(int) with] : new ShadowMask(with);
    }

    /** Whether limit {@code position} is in shadow mode. */
    public boolean contains(int position) {
        return (bits & 1L << position) != 0;
    }

    /** Whether every limit is enforced. */
    public boolean isEmpty() {
        return bits == 0;
    }

    /** The items of the enforced limits, in order (the same list when every limit is enforced). */
    public <T> List<T> enforcedOnly(List<T> items) {
        if (bits == 0) {
            return items;
        }
        List<T> enforced = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            if (!contains(i)) {
                enforced.add(items.get(i));
            }
        }
        return enforced;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ShadowMask mask && mask.bits == bits;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bits);
    }

    @Override
    public String toString() {
        return "ShadowMask" + Long.toBinaryString(bits);
    }
}
