package io.quarkiverse.ratelimit.deployment.wait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A maxWait that cannot be parsed, is negative, or asks an algorithm that cannot hold a later slot fails the build; so
 * does a lateSlotTolerance that is not a duration, and an adaptive limit on a method that is not a REST Client's.
 */
class InvalidWaitBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Waiting.class))
            .assertException(failure -> {
                String messages = Throwables.allMessages(failure);
                String on = "@RateLimited on " + Waiting.class.getName();
                assertThat(messages)
                        .contains(on + "#notADuration() has maxWait = \"soon\", which is not a duration")
                        .contains(on + "#negative() has maxWait = \"-1s\", which is not a duration")
                        .contains(on + "#countingWindow() has maxWait = \"2s\"; only the token bucket and GCRA can"
                                + " hold a later slot for a call; SLIDING_WINDOW_COUNTER counts calls in windows")
                        .contains(on + "#mixed() its calls may wait (maxWait), so every limit of it must be a"
                                + " TOKEN_BUCKET or GCRA, which hold a waiting call's later slot; limit 'Waiting.mixed-1h'"
                                + " is FIXED_WINDOW")
                        .contains(on + "#lateByWords() has lateSlotTolerance = \"a bit\", which is not a duration")
                        .contains(on + "#adaptiveIncoming() has adaptive = true, but an adaptive limit learns from the"
                                + " 429 answers of the service a REST Client calls: use it on a @RegisterRestClient"
                                + " interface's method");
            });

    @Path("/waiting")
    public static class Waiting {

        @GET
        @Path("not-a-duration")
        @RateLimited(limit = 1, window = "1s", algorithm = Algorithm.GCRA, maxWait = "soon")
        public String notADuration() {
            return "";
        }

        @GET
        @Path("negative")
        @RateLimited(limit = 1, window = "1s", algorithm = Algorithm.GCRA, maxWait = "-1s")
        public String negative() {
            return "";
        }

        @GET
        @Path("counting")
        @RateLimited(limit = 1, window = "1s", maxWait = "2s")
        public String countingWindow() {
            return "";
        }

        @GET
        @Path("mixed")
        @RateLimited(limit = 5, window = "1s", algorithm = Algorithm.GCRA, maxWait = "2s")
        @RateLimited(limit = 100, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
        public String mixed() {
            return "";
        }

        @GET
        @Path("late-by-words")
        @RateLimited(limit = 5, window = "1s", algorithm = Algorithm.GCRA, maxWait = "2s", lateSlotTolerance = "a bit")
        public String lateByWords() {
            return "";
        }

        @GET
        @Path("adaptive-incoming")
        @RateLimited(limit = 5, window = "1s", adaptive = true)
        public String adaptiveIncoming() {
            return "";
        }
    }

    @Test
    void buildFails() {
        fail("The build should have failed");
    }
}
