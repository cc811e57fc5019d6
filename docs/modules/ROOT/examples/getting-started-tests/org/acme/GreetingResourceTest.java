package org.acme;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class GreetingResourceTest {

    // tag::refusal[]
    @Test
    void theSixthCallWithinTenSecondsIsRefused() {
        for (int i = 0; i < 5; i++) {
            given().get("/hello").then().statusCode(200).body(is("Hello from Quarkus REST"));
        }
        given().get("/hello").then().statusCode(429)
                .header("Retry-After", notNullValue())
                .header("RateLimit-Policy", "\"GreetingResource.hello\";q=5;w=10");
    }
    // end::refusal[]
}
