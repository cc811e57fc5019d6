package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A policy that makes an endpoint's limit adaptive fails start-up naming the property: only a REST Client's calls get
 * the answers an adaptive limit learns from.
 */
class AdaptivePolicyOnAnIncomingMethodTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.policies.searches.adaptive is true, but limit 'Searches.search' of")
            .withApplicationRoot(jar -> jar.addClasses(Searches.class))
            .overrideConfigKey("quarkus.rate-limit.policies.searches.adaptive", "true");

    @Path("/adaptive-searches")
    public static class Searches {

        @GET
        @RateLimited(policy = "searches", limit = 10, window = "1m")
        public String search() {
            return "";
        }
    }

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
