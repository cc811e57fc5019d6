package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class InvalidationMessagesTest {

    final List<String> heard = new ArrayList<>();
    final List<InvalidationListener> listeners = List.of(new InvalidationListener() {
        @Override
        public void keysChanged(List<String> keys) {
            heard.add("keys " + keys);
        }

        @Override
        public void keysReset(List<String> keys) {
            heard.add("reset " + keys);
        }

        @Override
        public void keysRecalled(List<String> keys) {
            heard.add("recalled " + keys);
        }

        @Override
        public void everythingChanged() {
            heard.add("everything");
        }

        @Override
        public void paused(List<String> keys, long pauseMillis) {
            heard.add("paused " + pauseMillis + " " + keys);
        }

        @Override
        public void learned(String key, String learned) {
            heard.add("learned " + key + " = " + learned);
        }
    });

    @Test
    void eachKindOfMessageCallsItsListenerMethod() {
        InvalidationMessages.tell("*", listeners);
        InvalidationMessages.tell("rl:{t}:a\nrl:{t}:b", listeners);
        InvalidationMessages.tell("\npause 2500\nrl:{c}:labels\nrl:{c}:quotes", listeners);
        InvalidationMessages.tell("\nlearned 40 1700000000000 0 50\nrl:{c}:labels", listeners);
        InvalidationMessages.tell("\nreset\nrl:{t}:a\nrl:{t}:b", listeners);
        InvalidationMessages.tell("\nrecall\nrl:{t}:a", listeners);
        assertThat(heard).containsExactly("everything", "keys [rl:{t}:a, rl:{t}:b]",
                "paused 2500 [rl:{c}:labels, rl:{c}:quotes]", "learned rl:{c}:labels = 40 1700000000000 0 50",
                "reset [rl:{t}:a, rl:{t}:b]", "recalled [rl:{t}:a]");
    }

    @Test
    void aLearnedValueWithoutItsKeyTellsNobody() {
        InvalidationMessages.tell("\nlearned 40 1700000000000 0 50", listeners);
        assertThat(heard).isEmpty();
    }
}
