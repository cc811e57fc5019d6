package io.quarkiverse.ratelimit.runtime.limit;

import java.util.List;

import io.quarkiverse.ratelimit.Algorithm;

/**
 * The algorithms a call's limits use, as a bit set of {@link Algorithm} ordinals: which assembled script decides the
 * call when Redis runs scripts rather than the function library.
 */
public final class AlgorithmSet {

    /** Every set of algorithms is below this. */
    public static final int SETS = 1 << Algorithm.values().length;

    private AlgorithmSet() {
    }

    public static int of(List<LimitDefinition> limits) {
        int set = 0;
        for (int i = 0; i < limits.size(); i++) {
            set |= 1 << limits.get(i).getAlgorithm().ordinal();
        }
        return set;
    }

    public static boolean contains(int set, Algorithm algorithm) {
        return (set & (1 << algorithm.ordinal())) != 0;
    }
}
