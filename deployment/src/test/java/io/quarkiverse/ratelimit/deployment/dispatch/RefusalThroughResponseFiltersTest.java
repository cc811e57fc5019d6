package io.quarkiverse.ratelimit.deployment.dispatch;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A refusal is written straight to the HTTP response only when nothing of the application's would see it: an
 * application whose response filter marks every response gets its mark on the 429 too, with the same status, headers
 * and body.
 */
class RefusalThroughResponseFiltersTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Marked.class, Marks.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/marked")
    public static class Marked {

        @GET
        @RateLimited(limit = 1, window = "1h")
        public String get() {
            return "ok";
        }
    }

    public static class Marks {

        @ServerResponseFilter
        public void mark(ContainerResponseContext response) {
            response.getHeaders().putSingle("X-Request-Mark", "seen");
        }
    }

    @Test
    void theApplicationsResponseFilterSeesTheRefusal() {
        String tenant = UUID.randomUUID().toString();
        given().header("X-Tenant-Id", tenant).get("/marked").then().statusCode(200)
                .header("X-Request-Mark", equalTo("seen"));
        given().header("X-Tenant-Id", tenant).get("/marked").then().statusCode(429)
                .header("X-Request-Mark", equalTo("seen"))
                .header("Content-Type", startsWith("application/problem+json"))
                .header("RateLimit", startsWith("\"Marked.get\";r=0"))
                .body("violated-policies[0]", equalTo("Marked.get"));
    }
}
