package io.quarkiverse.ratelimit.deployment.dispatch;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkus.test.QuarkusUnitTest;

/** An application that maps refusals itself still answers them, though the call is refused before dispatch. */
class OwnRefusalMapperTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Dispatched.class, BlockingFilterCalls.class, SlowDown.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Provider
    public static class SlowDown implements ExceptionMapper<RateLimitExceededException> {

        @Override
        public Response toResponse(RateLimitExceededException refusal) {
            return Response.status(503).header("X-Slow-Down", refusal.violations().get(0).limitName())
                    .entity("slow down").build();
        }
    }

    @Test
    void theApplicationsMapperAnswersTheRefusalWithTheRateLimitHeaders() {
        given().header("X-Tenant-Id", "own").get("/dispatch/plain").then().statusCode(200);
        given().header("X-Tenant-Id", "own").get("/dispatch/plain").then().statusCode(200);
        given().header("X-Tenant-Id", "own").get("/dispatch/plain").then().statusCode(503)
                .header("X-Slow-Down", "Dispatched.plain")
                .header("RateLimit-Policy", "\"Dispatched.plain\";q=2;w=3600")
                .body(equalTo("slow down"));
    }
}
