package io.quarkiverse.ratelimit.deployment.reserve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;

/** A method returning a Multi has no one result to read a cost from: costOf on it fails the build, naming it. */
class CostOfOnAStreamBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Stream.class, Chunks.class))
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("@RateLimited on " + Stream.class.getName() + "#chunks() has costOf, but returns a"
                            + " Multi, whose items no cost is read from"));

    public static class Chunks implements CostOf<String> {
        @Override
        public long cost(String chunk) {
            return chunk.length();
        }
    }

    @Path("/stream")
    public static class Stream {

        @GET
        @RateLimited(limit = 1000, window = "1h", cost = 100, costOf = Chunks.class)
        public Multi<String> chunks() {
            return Multi.createFrom().items("a", "b");
        }
    }

    @Test
    void buildFails() {
        fail("The build should have failed");
    }
}
