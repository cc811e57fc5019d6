package io.quarkiverse.ratelimit.deployment.observe;

import static io.restassured.RestAssured.given;

import io.restassured.response.ValidatableResponse;

/** The application's readiness, as a load balancer or Kubernetes reads it. */
final class Readiness {

    /** The JSON path of the rate limiter's check among all checks. */
    static final String RATE_LIMIT = "checks.find { it.name == 'rate-limit' }";

    /** The scripts an application whose limits use one algorithm loads: decide, refund, concurrency and reset. */
    static final int SCRIPTS_OF_ONE_ALGORITHM = 4;

    static ValidatableResponse check() {
        return given().get("/q/health/ready").then();
    }

    private Readiness() {
    }
}
