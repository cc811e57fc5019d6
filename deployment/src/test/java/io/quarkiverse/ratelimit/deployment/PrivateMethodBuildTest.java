package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A private method cannot be intercepted, so neither annotation can take effect there: the build fails naming the
 * method, by one rule for both, even when ArC is told to only warn about intercepted private methods.
 */
class PrivateMethodBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Quotas.class))
            .overrideConfigKey("quarkus.arc.fail-on-intercepted-private-method", "false")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("@RateLimited on " + Quotas.class.getName()
                            + "#limited() is private and cannot be intercepted; make it at least package-private")
                    .contains("@ConcurrencyLimited on " + Quotas.class.getName()
                            + "#concurrent() is private and cannot be intercepted; make it at least package-private"));

    @ApplicationScoped
    public static class Quotas {

        @RateLimited(limit = 1, window = "1m")
        private String limited() {
            return "";
        }

        @ConcurrencyLimited(limit = 1)
        private String concurrent() {
            return "";
        }

        public String both() {
            return limited() + concurrent();
        }
    }

    @Test
    void theBuildFails() {
        fail("the build should have failed");
    }
}
