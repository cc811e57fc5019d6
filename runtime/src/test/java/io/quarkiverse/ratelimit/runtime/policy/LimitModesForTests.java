package io.quarkiverse.ratelimit.runtime.policy;

import java.util.Map;
import java.util.Set;

import io.quarkiverse.ratelimit.Mode;

/** {@link LimitModes} for unit tests of other packages: every limit enforced, and the run-time switches given. */
public final class LimitModesForTests {

    private LimitModesForTests() {
    }

    /** @param switches the run-time switches as stored ({@code "<limit> failure-mode"} to a value, ...) */
    public static LimitModes enforcedWith(Map<String, String> switches) {
        return new LimitModes(Mode.ENFORCE, 100, "s", Set.of(), Set.of(), Map.of(), Map.of(), false, () -> switches);
    }
}
