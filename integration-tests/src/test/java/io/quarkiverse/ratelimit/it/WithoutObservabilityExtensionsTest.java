package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.runtime.observe.NoRateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * This application has neither quarkus-micrometer nor quarkus-smallrye-health: the rate limiter needs neither, records
 * nothing, and loads no class of theirs.
 */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class WithoutObservabilityExtensionsTest {

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
