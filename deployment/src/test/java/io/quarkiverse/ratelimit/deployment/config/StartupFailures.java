package io.quarkiverse.ratelimit.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/** An application with one policy limit that must fail to start (or build) with messages containing {@code expected}. */
final class StartupFailures {

    private StartupFailures() {
    }

    static QuarkusUnitTest expect(String... expected) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(Labels.class))
                .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
                .assertException(failure -> assertThat(Throwables.allMessages(failure)).contains(expected));
    }

    @Path("/labels/{carrier}")
    public static class Labels {

        @GET
        @RateLimited(policy = "labels", limit = 10, window = "1m")
        public String label(@PathParam("carrier") String carrier) {
            return carrier;
        }
    }
}
