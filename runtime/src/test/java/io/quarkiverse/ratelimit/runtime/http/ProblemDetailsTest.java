package io.quarkiverse.ratelimit.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The problem body's JSON: members in order, text escaped where JSON needs it and copied as is where it does not. */
class ProblemDetailsTest {

    @Test
    void plainTextIsCopiedAsItIs() {
        assertThat(new ProblemDetails(429, "Too Many Requests", "Rate limit 'search' of 5 per 10s exceeded")
                .violatedPolicies(List.of("search")).toJson()).isEqualTo("{\"type\":\"about:blank\","
                        + "\"title\":\"Too Many Requests\",\"status\":429,"
                        + "\"detail\":\"Rate limit 'search' of 5 per 10s exceeded\",\"violated-policies\":[\"search\"]}");
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscapedWhereverTheyAre() {
        assertThat(new ProblemDetails(400, "Bad \"tenant\"", "a\\b\nc\td\u0001").toJson())
                .isEqualTo("{\"type\":\"about:blank\",\"title\":\"Bad \\\"tenant\\\"\",\"status\":400,"
                        + "\"detail\":\"a\\\\b\\nc\\td\\u0001\"}");
        StringBuilder out = new StringBuilder();
        ProblemDetails.appendEscaped(out, "\"first");
        ProblemDetails.appendEscaped(out, "last\\");
        ProblemDetails.appendEscaped(out, "é and ✓ stay");
        assertThat(out).hasToString("\\\"firstlast\\\\é and ✓ stay");
    }
}
