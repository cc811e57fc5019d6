package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Policies, endpoints and parameters an annotation names are checked at build time: a policy that the build's
 * configuration does not define (and the annotation does not complete) fails the build, naming the method and the
 * property to set.
 */
class InvalidPolicyBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Policies.class, NotRest.class))
            .overrideConfigKey("quarkus.rate-limit.policies.only-limit.limit", "5")
            .assertException(failure -> {
                String messages = Throwables.allMessages(failure);
                String policies = "@RateLimited on " + Policies.class.getName();
                assertThat(messages)
                        .contains(policies + "#undefined() uses policy 'nowhere', which is not configured with a"
                                + " limit: set quarkus.rate-limit.policies.nowhere.limit, or limit in the annotation")
                        .contains(policies + "#undefined() uses policy 'nowhere', which is not configured with a"
                                + " window: set quarkus.rate-limit.policies.nowhere.window, or window in the annotation")
                        .contains(policies + "#onlyLimit() uses policy 'only-limit', which is not configured with a"
                                + " window")
                        .contains(policies + "#noWindow() has no window")
                        .contains(policies + "#noLimit() has limit = 0; it must be greater than zero")
                        .contains(policies + "#badPolicyName() has policy = \"no spaces\"")
                        .contains(policies + "#unknownParameter(String) has perParameter = \"carier\", but the method"
                                + " has no parameter of that name (named parameters: [carrier])")
                        .contains("@RateLimited on " + NotRest.class.getName() + "#work() has perEndpoint = true, but"
                                + " is not a REST endpoint");
                assertThat(messages).doesNotContain("#complete()");
            });

    @Path("/policies/{carrier}")
    public static class Policies {

        @GET
        @Path("undefined")
        @RateLimited(policy = "nowhere")
        public String undefined() {
            return "";
        }

        @GET
        @Path("only-limit")
        @RateLimited(policy = "only-limit")
        public String onlyLimit() {
            return "";
        }

        @GET
        @Path("complete")
        @RateLimited(policy = "only-limit", window = "1m")
        public String complete() {
            return "";
        }

        @GET
        @Path("no-window")
        @RateLimited(limit = 5)
        public String noWindow() {
            return "";
        }

        @GET
        @Path("no-limit")
        @RateLimited(window = "1m")
        public String noLimit() {
            return "";
        }

        @GET
        @Path("bad-policy-name")
        @RateLimited(policy = "no spaces", limit = 1, window = "1m")
        public String badPolicyName() {
            return "";
        }

        @GET
        @Path("unknown-parameter")
        @RateLimited(limit = 1, window = "1m", perParameter = "carier")
        public String unknownParameter(@PathParam("carrier") String carrier) {
            return carrier;
        }
    }

    @ApplicationScoped
    public static class NotRest {

        @RateLimited(limit = 1, window = "1m", perEndpoint = true)
        public String work() {
            return "";
        }
    }

    @Test
    void theBuildFails() {
        fail("The build should have failed");
    }
}
