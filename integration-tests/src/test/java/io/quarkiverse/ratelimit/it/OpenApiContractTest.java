package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;

/**
 * The limits as a contract: the OpenAPI document the application serves (built with it, from the annotations and the
 * configuration) gives every limited operation its 429 with the problem body and the rate-limit headers, its 503 where
 * a limit fails closed, its 403 and missing-tenant 400 where it is per tenant, and each limit in {@code x-rate-limit};
 * an operation no limit applies to gets none of it. Read in JSON and YAML by an OpenAPI parser of its own.
 */
@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class OpenApiContractTest {

    @ParameterizedTest
    @ValueSource(strings = { "json", "yaml" })
    void everyLimitedOperationAndOnlyThoseDocumentItsRefusals(String format) {
        OpenAPI document = parsed(format);
        int limited = 0;
        for (Map.Entry<String, PathItem> path : document.getPaths().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, Operation> entry : path.getValue().readOperationsMap().entrySet()) {
                Operation operation = entry.getValue();
                String name = entry.getKey() + " " + path.getKey();
                boolean hasLimits = operation.getExtensions() != null
                        && operation.getExtensions().containsKey("x-rate-limit");
                assertThat(operation.getResponses().containsKey("429")).as("%s: a 429 exactly where it has limits", name)
                        .isEqualTo(hasLimits);
                if (hasLimits) {
                    limited++;
                    ApiResponse tooMany = operation.getResponses().get("429");
                    assertThat(tooMany.getHeaders()).as(name).containsKey("Retry-After");
                    if (limits(operation).stream().anyMatch(limit -> !"concurrency".equals(limit.get("algorithm")))) {
                        assertThat(tooMany.getHeaders()).as("%s: a rate limit's state", name)
                                .containsKeys("RateLimit", "RateLimit-Policy");
                    } else {
                        assertThat(tooMany.getHeaders()).as("%s: a concurrency limit tells when to retry only", name)
                                .doesNotContainKeys("RateLimit", "RateLimit-Policy");
                    }
                    assertThat(tooMany.getContent().get("application/problem+json").getSchema().get$ref())
                            .isEqualTo("#/components/schemas/RateLimitProblem");
                }
            }
        }
        assertThat(limited).as("the application's limited operations").isGreaterThan(20);
        assertThat(document.getComponents().getSchemas()).containsKey("RateLimitProblem");
        assertThat(document.getComponents().getHeaders()).containsKeys("RateLimit", "RateLimit-Policy", "Retry-After");
    }

    @ParameterizedTest
    @ValueSource(strings = { "json", "yaml" })
    void eachLimitIsDescribedAsConfigured(String format) {
        OpenAPI document = parsed(format);

        Operation search = document.getPaths().get("/search").getGet();
        assertThat(limits(search)).containsExactly(Map.of("name", "SearchResource.search", "quota", 5, "window", "10s",
                "algorithm", "sliding-window-counter", "scope", "tenant"));
        assertThat(search.getResponses()).as("per tenant: a blocked tenant, a call without one")
                .containsKeys("403", "400").doesNotContainKey("503");

        Operation labels = document.getPaths().get("/carriers/{carrier}/labels").getPost();
        assertThat(limits(labels).get(0)).as("a policy's values, as configured").containsEntry("policy", "labels")
                .containsEntry("quota", 100).containsEntry("window", "1m");

        assertThat(limits(document.getPaths().get("/entry/guest").getGet()).get(0))
                .as("a window in its largest whole unit, as a policy's is: 1d, not 86400s").containsEntry("window", "1d");

        assertThat(limits(document.getPaths().get("/reports").getPost())).as("a concurrency limit and a rate limit")
                .extracting(limit -> limit.get("algorithm")).containsExactlyInAnyOrder("concurrency",
                        "sliding-window-counter");

        assertThat(document.getPaths().get("/failure/closed").getGet().getResponses()).as("fails closed")
                .containsKey("503");
        assertThat(document.getPaths().get("/failure/open").getGet().getResponses()).doesNotContainKey("503");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> limits(Operation operation) {
        return (List<Map<String, Object>>) operation.getExtensions().get("x-rate-limit");
    }

    private static OpenAPI parsed(String format) {
        String body = given().queryParam("format", format).get("/q/openapi").then().statusCode(200).extract()
                .asString();
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(body);
        assertThat(result.getMessages()).as("a valid OpenAPI document").isEmpty();
        return result.getOpenAPI();
    }
}
