package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.NonBlocking;

/** Every invalid use fails the build, and one build reports all of them, each naming its class and method. */
class InvalidRateLimitedBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Invalid.class, OnInterface.class, NotABean.class, Shared.class,
                    SharedBurst.class))
            .assertException(failure -> {
                String messages = Throwables.allMessages(failure);
                String invalid = "@RateLimited on " + Invalid.class.getName();
                assertThat(messages)
                        .contains(invalid + "#zeroLimit() has limit = 0; it must be greater than zero")
                        .contains(invalid + "#notADuration() has window = \"soon\", which is not a duration")
                        .contains(invalid + "#zeroWindow() has window = \"0s\"; it must be at least 1ms")
                        .contains(invalid + "#badName() has name = \"no spaces!\"")
                        .contains(invalid + "#nonBlocking(String) is @NonBlocking but returns a plain value")
                        .contains(invalid + "#twice() declares two limits named 'same'")
                        .contains(invalid + "#tooExpensive() has cost = 6; it must be between 0 and the limit (5)")
                        .contains(invalid + "#hugeLog() has limit = 20000; the sliding window log keeps an entry per"
                                + " unit, so its limit is at most 10000")
                        .contains("@ConcurrencyLimited on " + Invalid.class.getName() + "#noConcurrency() has limit = 0")
                        .contains("@ConcurrencyLimited on " + Invalid.class.getName()
                                + "#noConcurrency() has lease = \"soon\", which is not a duration")
                        .contains(invalid + "#burstOnAWindow() has burst = 3; a burst is a positive number of units, for"
                                + " the token bucket and GCRA only")
                        .contains("@RateLimited on " + OnInterface.class.getName() + "#limited() is declared on an"
                                + " interface")
                        .contains("Rate limiting on " + NotABean.class.getName() + "#limited() has no effect: "
                                + NotABean.class.getName() + " is not a CDI bean")
                        .contains("@RateLimited on " + Shared.class.getName() + "#second() declares limit 'shared' as"
                                + " shared (20 per PT1M, SLIDING_WINDOW_COUNTER), but " + Shared.class.getName()
                                + "#first() declares it as shared (10 per PT1M, SLIDING_WINDOW_COUNTER)")
                        .contains("@RateLimited on " + SharedBurst.class.getName() + "#second() declares limit"
                                + " 'shared-burst' as shared-burst (10 per PT1M, GCRA, burst 1), but "
                                + SharedBurst.class.getName() + "#first() declares it as shared-burst (10 per PT1M, GCRA,"
                                + " burst 5); methods sharing a limit name share its counter and must count alike");
            });

    @Path("/invalid")
    public static class Invalid {

        @GET
        @Path("huge-log")
        @RateLimited(limit = 20_000, window = "1m", algorithm = Algorithm.SLIDING_WINDOW_LOG)
        public String hugeLog() {
            return "";
        }

        @GET
        @Path("zero-limit")
        @RateLimited(limit = 0, window = "1m")
        public String zeroLimit() {
            return "";
        }

        @GET
        @Path("not-a-duration")
        @RateLimited(limit = 1, window = "soon")
        public String notADuration() {
            return "";
        }

        @GET
        @Path("zero-window")
        @RateLimited(limit = 1, window = "0s")
        public String zeroWindow() {
            return "";
        }

        @GET
        @Path("bad-name")
        @RateLimited(limit = 1, window = "1m", name = "no spaces!")
        public String badName() {
            return "";
        }

        @GET
        @Path("non-blocking")
        @NonBlocking
        @RateLimited(limit = 1, window = "1m")
        public String nonBlocking(String body) {
            return body;
        }

        @GET
        @Path("too-expensive")
        @RateLimited(limit = 5, window = "1m", cost = 6)
        public String tooExpensive() {
            return "";
        }

        @GET
        @Path("burst-on-a-window")
        @RateLimited(limit = 5, window = "1m", burst = 3)
        public String burstOnAWindow() {
            return "";
        }

        @GET
        @Path("no-concurrency")
        @ConcurrencyLimited(limit = 0, lease = "soon")
        public String noConcurrency() {
            return "";
        }

        @GET
        @Path("twice")
        @RateLimited(limit = 1, window = "1m", name = "same")
        @RateLimited(limit = 10, window = "1h", name = "same")
        public String twice() {
            return "";
        }
    }

    public interface OnInterface {
        @RateLimited(limit = 1, window = "1m")
        String limited();
    }

    public static class NotABean {
        @RateLimited(limit = 1, window = "1m")
        public String limited() {
            return "";
        }
    }

    /** One counter cannot have two bursts: the second method would decide another bucket on the same key. */
    @ApplicationScoped
    public static class SharedBurst {
        @RateLimited(limit = 10, window = "1m", name = "shared-burst", algorithm = Algorithm.GCRA, burst = 5)
        public String first() {
            return "";
        }

        @RateLimited(limit = 10, window = "1m", name = "shared-burst", algorithm = Algorithm.GCRA, burst = 1)
        public String second() {
            return "";
        }
    }

    @ApplicationScoped
    public static class Shared {
        @RateLimited(limit = 10, window = "1m", name = "shared")
        public String first() {
            return "";
        }

        @RateLimited(limit = 20, window = "1m", name = "shared")
        public String second() {
            return "";
        }
    }

    @Test
    void theBuildFails() {
        fail("The build should have failed");
    }
}
