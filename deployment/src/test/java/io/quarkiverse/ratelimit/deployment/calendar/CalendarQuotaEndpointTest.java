package io.quarkiverse.ratelimit.deployment.calendar;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A daily quota in a time zone on an endpoint: the period's limit, then 429 with a {@code Retry-After} that counts to
 * midnight in that zone; the zone of a limit that names none comes from {@code quarkus.rate-limit.time-zone}.
 */
class CalendarQuotaEndpointTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Shipments.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.time-zone", "Asia/Tokyo");

    @Test
    void aDailyQuotaIsRefusedUntilMidnightInItsZone() {
        assertRetryAfterCountsToMidnight("/shipments/berlin", ZoneId.of("Europe/Berlin"));
    }

    @Test
    void aQuotaThatNamesNoZoneCountsInTheConfiguredOne() {
        assertRetryAfterCountsToMidnight("/shipments/configured", ZoneId.of("Asia/Tokyo"));
    }

    private static void assertRetryAfterCountsToMidnight(String path, ZoneId zone) {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 2; i++) {
            given().header("X-Tenant-Id", tenant).get(path).then().statusCode(200)
                    .header("RateLimit-Policy", equalTo("\"" + "Shipments." + path.substring(11) + "\";q=2;w=86400"));
        }
        String retryAfter = given().header("X-Tenant-Id", tenant).get(path).then().statusCode(429).extract()
                .header("Retry-After");
        ZonedDateTime now = ZonedDateTime.now(zone);
        long toMidnight = Duration.between(now, LocalDate.now(zone).plusDays(1).atStartOfDay(zone)).toSeconds();
        assertThat(Long.parseLong(retryAfter)).as("seconds to midnight in %s", zone)
                .isBetween(toMidnight - 5, toMidnight + 5);
    }

    @Path("/shipments")
    public static class Shipments {

        @GET
        @Path("berlin")
        @RateLimited(limit = 2, period = CalendarPeriod.DAY, timeZone = "Europe/Berlin")
        public String berlin() {
            return "booked";
        }

        @GET
        @Path("configured")
        @RateLimited(limit = 2, period = CalendarPeriod.DAY)
        public String configured() {
            return "booked";
        }
    }
}
