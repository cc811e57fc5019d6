package io.quarkiverse.ratelimit.deployment.early;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application request filter that runs before the limiter's answers a flooding tenant's requests as it did: no
 * refusal is answered before Quarkus REST where a step of the application's would have answered first.
 */
class EarlyRefusalAfterRequestFiltersTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Limited.class, Gatekeeper.class, RestArrivals.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/filtered")
    public static class Limited {

        @GET
        @RateLimited(limit = 2, window = "1h")
        public String get() {
            return "ok";
        }
    }

    public static class Gatekeeper {

        /** Before the limiter's filter (500): a request marked as unwelcome is turned away here. */
        @ServerRequestFilter(priority = 100, nonBlocking = true)
        public Response turnAway(ContainerRequestContext request) {
            return request.getHeaderString("X-Unwelcome") != null ? Response.status(401).build() : null;
        }
    }

    @Test
    void theApplicationsFilterAnswersAFloodingTenantFirst() {
        String tenant = "filtered-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) {
            given().header("X-Tenant-Id", tenant).get("/filtered").then().statusCode(200);
        }
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/filtered").then().statusCode(429);
        }
        int before = RestArrivals.count();
        given().header("X-Tenant-Id", tenant).header("X-Unwelcome", "yes").get("/filtered").then().statusCode(401);
        given().header("X-Tenant-Id", tenant).get("/filtered").then().statusCode(429);
        assertThat(RestArrivals.count()).as("both went through Quarkus REST").isEqualTo(before + 2);
    }
}
