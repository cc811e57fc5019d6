package io.quarkiverse.ratelimit.gettingstarted;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.runtime.observe.NoRateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The application of the getting-started page, as a newcomer builds it: Quarkus REST, the extension, no configuration
 * (in tests and dev mode the extension starts its own redis-server), neither quarkus-micrometer nor
 * quarkus-smallrye-health. The rate limiter needs neither, records nothing and loads no class of theirs; the page's
 * sixth call within 10 seconds is refused.
 */
@QuarkusTest
class GettingStartedApplicationTest {

    @Inject
    RateLimitMetrics metrics;

    @Test
    void theDecisionPathRecordsNothing() {
        assertThat(metrics).isInstanceOf(NoRateLimitMetrics.class);
        assertThatThrownBy(() -> Class.forName("io.micrometer.core.instrument.MeterRegistry"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void thereIsNoHealthEndpoint() {
        given().get("/q/health/ready").then().statusCode(404);
    }

    @Test
    void theSixthCallWithinTenSecondsIsRefused() {
        for (int i = 0; i < 5; i++) {
            given().get("/hello").then().statusCode(200).body(is("Hello from Quarkus REST"));
        }
        given().get("/hello").then().statusCode(429).header("Retry-After", notNullValue())
                .header("RateLimit-Policy", "\"GreetingResource.hello\";q=5;w=10");
    }
}
