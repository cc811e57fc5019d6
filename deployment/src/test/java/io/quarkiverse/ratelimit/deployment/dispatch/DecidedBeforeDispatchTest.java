package io.quarkiverse.ratelimit.deployment.dispatch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * REST endpoints are decided on the event loop before dispatch: a refused call never reaches the application's blocking
 * filters, its worker thread or the method, and still gets the whole 429. A call whose keys read what only the
 * method's arguments hold is decided by the interceptor, exactly as well.
 */
class DecidedBeforeDispatchTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Dispatched.class, BlockingFilterCalls.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Test
    void aRefusedCallOfABlockingEndpointNeverReachesTheWorkerThread() {
        for (int i = 0; i < 2; i++) {
            given().header("X-Tenant-Id", "plain").get("/dispatch/plain").then().statusCode(200)
                    .header("RateLimit", matchesPattern("\"Dispatched.plain\";r=" + (1 - i) + ";t=\\d+"));
        }
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", "plain").get("/dispatch/plain").then().statusCode(429)
                    .contentType("application/problem+json")
                    .header("Retry-After", matchesPattern("[1-9]\\d*"))
                    .header("RateLimit-Policy", "\"Dispatched.plain\";q=2;w=3600")
                    .header("RateLimit", matchesPattern("\"Dispatched\\.plain\";r=0;t=\\d+"))
                    .body("violated-policies", equalTo(List.of("Dispatched.plain")));
        }

        assertThat(Dispatched.INVOKED).hasValue(2);
        assertThat(BlockingFilterCalls.calls("/dispatch/plain")).as("requests that reached the worker thread")
                .isEqualTo(2);
        assertThat(BlockingFilterCalls.ON_EVENT_LOOP).hasValue(0);
    }

    @Test
    void aReactiveEndpointIsDecidedOnceWithItsHeaders() {
        for (int i = 0; i < 2; i++) {
            given().header("X-Tenant-Id", "reactive").get("/dispatch/reactive").then().statusCode(200)
                    .header("RateLimit", matchesPattern("\"Dispatched.reactive\";r=" + (1 - i) + ";t=\\d+"));
        }
        given().header("X-Tenant-Id", "reactive").get("/dispatch/reactive").then().statusCode(429);
    }

    @Test
    void aCounterPerPathParameterIsDecidedFromTheMatchedPath() {
        given().header("X-Tenant-Id", "paths").get("/dispatch/carriers/ups").then().statusCode(200).body(equalTo("ups"));
        given().header("X-Tenant-Id", "paths").get("/dispatch/carriers/ups").then().statusCode(429);
        given().header("X-Tenant-Id", "paths").get("/dispatch/carriers/dhl").then().statusCode(200);
        given().urlEncodingEnabled(false).header("X-Tenant-Id", "paths").get("/dispatch/carriers/d%68l").then().statusCode(429)
                .header("RateLimit-Policy", "\"Dispatched.byPath\";q=1;w=3600");

        assertThat(BlockingFilterCalls.calls("/dispatch/carriers/ups")).isEqualTo(1);
    }

    @Test
    void aCounterPerQueryParameterIsDecidedFromTheRequest() {
        given().header("X-Tenant-Id", "queries").queryParam("carrier", "ups").get("/dispatch/rates").then()
                .statusCode(200);
        given().header("X-Tenant-Id", "queries").queryParam("carrier", "ups").get("/dispatch/rates").then()
                .statusCode(429).header("RateLimit-Policy", "\"Dispatched.byQuery\";q=1;w=3600")
                .body("violated-policies", equalTo(List.of("Dispatched.byQuery")));
        given().header("X-Tenant-Id", "queries").queryParam("carrier", "dhl").get("/dispatch/rates").then()
                .statusCode(200);

        assertThat(BlockingFilterCalls.calls("/dispatch/rates")).as("refused before the filters").isEqualTo(2);
    }

    @Test
    void aCounterPerConvertedParameterIsDecidedByTheInterceptorFromTheArguments() {
        given().header("X-Tenant-Id", "pages").queryParam("page", "7").get("/dispatch/pages").then().statusCode(200);
        given().header("X-Tenant-Id", "pages").queryParam("page", "07").get("/dispatch/pages").then().statusCode(429)
                .header("RateLimit-Policy", "\"Dispatched.byPage\";q=1;w=3600");
        given().header("X-Tenant-Id", "pages").queryParam("page", "8").get("/dispatch/pages").then().statusCode(200);

        assertThat(BlockingFilterCalls.calls("/dispatch/pages")).as("decided after the filters, on the worker")
                .isEqualTo(3);
    }
}
