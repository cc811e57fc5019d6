package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

/** {@link DecisionObservers} for unit tests of other packages. */
public final class DecisionObserversForTests {

    private DecisionObserversForTests() {
    }

    public static DecisionObservers of(DecisionObserver... observers) {
        return new DecisionObservers(List.of(observers));
    }
}
