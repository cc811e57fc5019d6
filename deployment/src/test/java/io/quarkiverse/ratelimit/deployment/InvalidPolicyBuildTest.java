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
 * What an annotation itself says about policies, endpoints and parameters is checked at build time, naming the method.
 * What configuration gives a policy is not: it may come from the environment at start-up ({@code config}
 * package: {@code PolicyFromRunTimeConfigTest}, {@code UnconfiguredPolicyTest}).
 */
class InvalidPolicyBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Policies.class, NotRest.class))
            .assertException(failure -> {
                String messages = Throwables.allMessages(failure);
                String policies = "@RateLimited on " + Policies.class.getName();
                assertThat(messages)
                        .contains(policies + "#noWindow() has no window")
                        .contains(policies + "#noLimit() has limit = 0; it must be greater than zero")
                        .contains(policies + "#badPolicyName() has policy = \"no spaces\"")
                        .contains(policies + "#unknownParameter(String) has perParameter = \"carier\", but the method"
                                + " has no parameter of that name (named parameters: [carrier])")
                        .contains("@RateLimited on " + NotRest.class.getName() + "#work() has perEndpoint = true, but"
                                + " is not a REST endpoint");
                // limit and window left to the policy's configuration: the build cannot know it
                assertThat(messages).doesNotContain("#undefined()").doesNotContain("#onlyWindow()");
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
        @Path("only-window")
        @RateLimited(policy = "only-window", window = "1m")
        public String onlyWindow() {
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
