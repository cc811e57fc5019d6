package org.acme;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.testing.RateLimitTestClock;
import io.quarkus.test.junit.QuarkusTest;

// tag::clock[]
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
            given().get("/exports").then().statusCode(200);
        }
        assertThat(retryAfterOfARefusal()).isBetween(3599L, 3600L);

        clock.advance(Duration.ofMinutes(59));
        assertThat(retryAfterOfARefusal()).isBetween(59L, 60L); // the first export counts for one more minute

        clock.advance(Duration.ofMinutes(1));
        given().get("/exports").then().statusCode(200);
    }

    private static long retryAfterOfARefusal() {
        return Long.parseLong(given().get("/exports").then().statusCode(429).extract().header("Retry-After"));
    }
}
// end::clock[]
