package io.quarkiverse.ratelimit.deployment.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/** A calendar period with a window, another algorithm, an anchor day out of range or an unknown zone fails the build. */
class InvalidCalendarBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Quotas.class))
            .assertException(failure -> {
                String messages = Throwables.allMessages(failure);
                String on = "@RateLimited on " + Quotas.class.getName();
                assertThat(messages)
                        .contains(on + "#withAWindow() has window = \"1d\" and period = DAY; a limit counts per window or"
                                + " per calendar period: leave one out")
                        .contains(on + "#slidingMonth() has period = MONTH, anchorDay = 1, algorithm ="
                                + " SLIDING_WINDOW_COUNTER; a calendar period is counted by CALENDAR_WINDOW")
                        .contains(on + "#noPeriod() has period = NONE, anchorDay = 1, algorithm = CALENDAR_WINDOW; a"
                                + " calendar window counts per calendar period: set a period")
                        .contains(on + "#thirtySecond() has period = MONTH, anchorDay = 32, algorithm = CALENDAR_WINDOW;"
                                + " the anchor day of a MONTH period is 1 to 31, not 32")
                        .contains(on + "#unknownZone() has timeZone = \"Mars/Olympus\", which is not a time zone");
            });

    @Path("/quotas")
    public static class Quotas {

        @GET
        @Path("window")
        @RateLimited(limit = 100, window = "1d", period = CalendarPeriod.DAY)
        public String withAWindow() {
            return "";
        }

        @GET
        @Path("sliding")
        @RateLimited(limit = 100, period = CalendarPeriod.MONTH, algorithm = Algorithm.SLIDING_WINDOW_COUNTER)
        public String slidingMonth() {
            return "";
        }

        @GET
        @Path("no-period")
        @RateLimited(limit = 100, window = "1d", algorithm = Algorithm.CALENDAR_WINDOW)
        public String noPeriod() {
            return "";
        }

        @GET
        @Path("thirty-second")
        @RateLimited(limit = 100, period = CalendarPeriod.MONTH, anchorDay = 32)
        public String thirtySecond() {
            return "";
        }

        @GET
        @Path("zone")
        @RateLimited(limit = 100, period = CalendarPeriod.DAY, timeZone = "Mars/Olympus")
        public String unknownZone() {
            return "";
        }
    }

    @Test
    void buildFails() {
        fail("The build should have failed");
    }
}
