package io.quarkiverse.ratelimit.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

@QuarkusTest
@WithTestResource(value = LocalRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class RateLimitedHttpTest {

    @Test
    void anAllowedResponseCarriesThePolicyAndTheRemainingQuota() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).get("/search?q=quarkus")
                .then().statusCode(200)
                .body(equalTo("results for quarkus"))
                .header("RateLimit-Policy", "\"SearchResource.search\";q=5;w=10")
                // sliding window: the full quota is back when the next 10 s window ends
                .header("RateLimit", matchesPattern("\"SearchResource\\.search\";r=4;t=(1[1-9]|20)"));
    }

    @Test
    void theSixthRequestInTheWindowIsRefusedWith429RetryAfterAndAProblemBody() {
        String tenant = tenant();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/search").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).get("/search")
                .then().statusCode(429)
                .contentType("application/problem+json")
                // sliding window counter: the 5 of this window weigh on the next one until 20% of it has passed,
                // so the wait is the rest of this window (0-10 s) plus 2 s
                .header("Retry-After", matchesPattern("([3-9]|1[0-2])"))
                .header("RateLimit-Policy", "\"SearchResource.search\";q=5;w=10")
                .header("RateLimit", matchesPattern("\"SearchResource\\.search\";r=0;t=(1[1-9]|20)"))
                .body("type", equalTo("https://iana.org/assignments/http-problem-types#quota-exceeded"))
                .body("title", equalTo("Too Many Requests"))
                .body("status", equalTo(429))
                .body("detail", matchesPattern("Rate limit 'SearchResource.search' of 5 per 10s exceeded; retry in"
                        + " ([3-9]|1[0-2])s"))
                .body("violated-policies", equalTo(List.of("SearchResource.search")));
    }

    @Test
    void aReactiveEndpointIsLimitedToo() {
        given().header("X-Tenant-Id", tenant()).get("/search/fixed")
                .then().statusCode(200)
                .body(equalTo("fixed window results"))
                .header("RateLimit-Policy", "\"SearchResource.fixed\";q=100;w=60");
    }

    @Test
    void twoTenantsDoNotAffectEachOther() {
        String exhausted = tenant();
        String other = tenant();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", exhausted).get("/search").then().statusCode(200);
        }
        given().header("X-Tenant-Id", exhausted).get("/search").then().statusCode(429);
        for (int i = 4; i >= 0; i--) {
            given().header("X-Tenant-Id", other).get("/search")
                    .then().statusCode(200)
                    .header("RateLimit", matchesPattern("\"SearchResource\\.search\";r=" + i + ";t=\\d+"));
        }
        given().header("X-Tenant-Id", other).get("/search").then().statusCode(429);
    }

    @ParameterizedTest
    @ValueSource(strings = { "sliding", "fixed" })
    void theNextWindowAdmitsAgainAfterARefusal(String algorithm) {
        String tenant = tenant();
        String path = "/rollover/" + algorithm;
        Response refused = null;
        for (int i = 0; i < 10 && refused == null; i++) {
            Response response = given().header("X-Tenant-Id", tenant).get(path);
            if (response.statusCode() == 429) {
                refused = response;
            }
        }
        assertThat(refused).as("a limit of 2 per second refuses within 10 quick calls").isNotNull();
        // fixed: the rest of the 1 s window; sliding: plus until half of this window's 2 calls have slid out
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, algorithm.equals("fixed") ? 1 : 2);
        Awaitility.await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> given().header("X-Tenant-Id", tenant).get(path).statusCode() == 200);
    }

    private static String tenant() {
        return "tenant-" + UUID.randomUUID();
    }
}
