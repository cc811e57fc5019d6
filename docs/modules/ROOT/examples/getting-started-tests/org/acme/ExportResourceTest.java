// tag::clock[]
package org.acme;

import static io.restassured.RestAssured.given;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.testing.RateLimitTestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

@QuarkusTest
class ExportResourceTest {

    @Inject
    RateLimitTestClock clock;

    @BeforeEach
    void startAfresh() {
        clock.reset(); // every limit's state deleted, the limiter's time back to now
    }

    @Test
    void fiveExportsAnHour() {
        for (int i = 0; i < 5; i++) {
            export().get("/exports").then().statusCode(200);
        }
        assertThat(retryAfterOfARefusal(), allOf(greaterThanOrEqualTo(3599L), lessThanOrEqualTo(3600L)));

        clock.advance(Duration.ofMinutes(59));
        // the first export counts for one more minute
        assertThat(retryAfterOfARefusal(), allOf(greaterThanOrEqualTo(59L), lessThanOrEqualTo(60L)));

        clock.advance(Duration.ofMinutes(1));
        export().get("/exports").then().statusCode(200);
    }

    /** A call of one tenant: an application that names its tenants by a header needs one (without, it is ignored). */
    private static RequestSpecification export() {
        return given().header("X-Tenant-Id", "acme");
    }

    private static long retryAfterOfARefusal() {
        return Long.parseLong(export().get("/exports").then().statusCode(429).extract().header("Retry-After"));
    }
}
// end::clock[]
