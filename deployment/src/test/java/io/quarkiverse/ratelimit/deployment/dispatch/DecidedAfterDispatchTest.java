package io.quarkiverse.ratelimit.deployment.dispatch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.matchesPattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** With {@code decide-before-dispatch=false}, the interceptor decides every call, after the application's filters. */
class DecidedAfterDispatchTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Dispatched.class, BlockingFilterCalls.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.decide-before-dispatch", "false");

    @Test
    void aRefusedCallReachesTheFiltersAndIsRefusedByTheInterceptor() {
        given().header("X-Tenant-Id", "after").get("/dispatch/plain").then().statusCode(200);
        given().header("X-Tenant-Id", "after").get("/dispatch/plain").then().statusCode(200);
        given().header("X-Tenant-Id", "after").get("/dispatch/plain").then().statusCode(429)
                .header("RateLimit", matchesPattern("\"Dispatched\\.plain\";r=0;t=\\d+"));

        assertThat(BlockingFilterCalls.calls("/dispatch/plain")).isEqualTo(3);
    }
}
