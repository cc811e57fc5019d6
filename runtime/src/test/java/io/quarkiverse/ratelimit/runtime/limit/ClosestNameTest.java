package io.quarkiverse.ratelimit.runtime.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** A misspelt name is answered with the name in use it most likely meant, and only then. */
class ClosestNameTest {

    static final List<String> IN_USE = List.of("greeting", "labels", "rates", "payment-retries");

    @Test
    void aSlipSuggestsTheNameItMeant() {
        assertThat(ClosestName.suggestion("greting", IN_USE)).isEqualTo("; did you mean 'greeting'?");
        assertThat(ClosestName.suggestion("lables", IN_USE)).as("two letters swapped").isEqualTo("; did you mean 'labels'?");
        assertThat(ClosestName.suggestion("payment-retry", IN_USE)).isEmpty();
        assertThat(ClosestName.suggestion("payment-retires", IN_USE)).isEqualTo("; did you mean 'payment-retries'?");
    }

    @Test
    void anotherNameSuggestsNothing() {
        assertThat(ClosestName.suggestion("searches", IN_USE)).isEmpty();
        assertThat(ClosestName.suggestion("ab", List.of("cd"))).isEmpty();
        assertThat(ClosestName.suggestion("greeting", List.of())).isEmpty();
    }
}
