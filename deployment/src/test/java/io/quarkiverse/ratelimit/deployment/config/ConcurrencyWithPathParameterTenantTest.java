package io.quarkiverse.ratelimit.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code @ConcurrencyLimited} follows the global tenant rule, which it cannot follow to a method parameter: start-up
 * fails naming the property, instead of every call failing later.
 */
class ConcurrencyWithPathParameterTenantTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Reports.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.source", "path-parameter")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("@ConcurrencyLimited takes its tenant from the parameter 'tenant'")
                    .contains("quarkus.rate-limit.tenant.path-parameter"));

    @Path("/reports")
    public static class Reports {

        @GET
        @ConcurrencyLimited(limit = 2)
        public String report() {
            return "";
        }
    }

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
