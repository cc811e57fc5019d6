package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** {@code quarkus.rate-limit.openapi.enabled=false}: the OpenAPI document says nothing of the limits. */
@QuarkusTest
@TestProfile(OpenApiContractSwitchedOffTest.Off.class)
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class OpenApiContractSwitchedOffTest {

    public static class Off implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rate-limit.openapi.enabled", "false");
        }
    }

    @Test
    void theDocumentHasNoRefusalOfALimit() {
        given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .body(containsString("\"/search\""), not(containsString("x-rate-limit")),
                        not(containsString("\"429\"")), not(containsString("RateLimitProblem")));
    }
}
