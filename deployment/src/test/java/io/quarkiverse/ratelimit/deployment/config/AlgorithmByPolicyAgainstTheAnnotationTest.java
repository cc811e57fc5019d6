package io.quarkiverse.ratelimit.deployment.config;

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
 * A policy that changes the algorithm to one the annotation's burst cannot go with fails start-up naming what the user
 * set, the policy's algorithm, and the annotation attribute it conflicts with; not a burst property set nowhere.
 */
class AlgorithmByPolicyAgainstTheAnnotationTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Printer.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.policies.printer.algorithm", "fixed-window")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("quarkus.rate-limit.policies.printer.algorithm is fixed-window, but the @RateLimited"
                            + " annotation of limit 'printer' sets burst = 1")
                    .doesNotContain("quarkus.rate-limit.policies.printer.burst is"));

    @Path("/print")
    public static class Printer {

        @GET
        @RateLimited(policy = "printer", name = "printer", limit = 5, window = "1s", algorithm = Algorithm.TOKEN_BUCKET, burst = 1)
        public String print() {
            return "printed";
        }
    }

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
