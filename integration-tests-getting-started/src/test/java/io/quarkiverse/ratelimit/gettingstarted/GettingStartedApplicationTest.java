package io.quarkiverse.ratelimit.gettingstarted;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.runtime.observe.NoRateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The application of the getting-started page, as a newcomer builds it: Quarkus REST, the extension, no configuration
 * (in tests and dev mode the extension starts its own redis-server), neither quarkus-micrometer nor
 * quarkus-smallrye-health. The rate limiter needs neither, records nothing and loads no class of theirs. The page's
 * own test ({@code org.acme.GreetingResourceTest}, in the docs' examples) makes its six calls.
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
}
