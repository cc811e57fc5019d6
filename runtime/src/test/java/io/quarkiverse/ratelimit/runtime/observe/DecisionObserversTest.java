package io.quarkiverse.ratelimit.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;

/** Every observer hears every decision; one that fails changes nothing for the others, nor for the decision. */
class DecisionObserversTest {

    @Test
    void anObserverThatFailsStopsNoOther() {
        List<String> heard = new ArrayList<>();
        DecisionObserver failing = call -> {
            throw new IllegalStateException("broken observer");
        };
        DecisionObserver listening = new DecisionObserver() {
            @Override
            public void decided(DecidedCall call) {
                heard.add("decided by " + call.by());
            }

            @Override
            public void unavailable(List<LimitDefinition> limits, String tenant, Object span) {
                heard.add("unavailable for " + tenant);
            }
        };
        DecisionObservers observers = new DecisionObservers(List.of(failing, listening));

        observers.decided(new DecidedCall(List.of(), List.of(), List.of(), DecidedBy.REDIS, null, ShadowMask.NONE,
                "acme", null));
        observers.unavailable(List.of(), "acme", null);

        assertThat(heard).containsExactly("decided by REDIS", "unavailable for acme");
    }

    @Test
    void eachLimitSaysWhatDecidedIt() {
        DecidedCall byFailureModes = new DecidedCall(List.of("a", "b"), List.of(), List.of(), DecidedBy.FALLBACK,
                List.of(DecidedBy.FALLBACK, DecidedBy.FAIL_OPEN), ShadowMask.NONE, null, null);
        DecidedCall byRedis = new DecidedCall(List.of("a", "b"), List.of(), List.of(), DecidedBy.REDIS, null,
                ShadowMask.NONE, null, null);

        assertThat(byFailureModes.by(1)).isEqualTo(DecidedBy.FAIL_OPEN);
        assertThat(byRedis.by(1)).isEqualTo(DecidedBy.REDIS);
    }
}
