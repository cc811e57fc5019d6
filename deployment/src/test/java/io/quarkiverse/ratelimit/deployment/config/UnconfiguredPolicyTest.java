package io.quarkiverse.ratelimit.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/** A policy that leaves its limit to configuration, which does not give one: start-up fails naming the property. */
class UnconfiguredPolicyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Labels.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("Policy 'nowhere' is used by @RateLimited limit 'Labels.label' but not configured: set"
                            + " quarkus.rate-limit.policies.nowhere.limit and quarkus.rate-limit.policies.nowhere.window"));

    @Path("/labels")
    public static class Labels {

        @GET
        @RateLimited(policy = "nowhere")
        public String label() {
            return "label";
        }
    }

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
