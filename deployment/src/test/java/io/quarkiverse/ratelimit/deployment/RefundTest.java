package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Scope;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/** Calls that fail in a way the limit names do not count: refundOn (exceptions) and refundOnServerError (5xx). */
class RefundTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Mailer.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/refunds")
    public static class Refunds {

        @GET
        @Path("matching")
        @RateLimited(limit = 2, window = "1h", name = "matching", refundOn = IllegalStateException.class)
        public String matching() {
            throw new IllegalStateException("downstream failed");
        }

        @GET
        @Path("other")
        @RateLimited(limit = 2, window = "1h", name = "other", refundOn = IllegalStateException.class)
        public String other() {
            throw new IllegalArgumentException("not a refund reason");
        }

        @GET
        @Path("reactive")
        @RateLimited(limit = 2, window = "1h", name = "reactive", refundOn = RuntimeException.class)
        public Uni<String> reactive() {
            return Uni.createFrom().failure(new IllegalStateException("a subclass of RuntimeException"));
        }

        @GET
        @Path("server-error")
        @RateLimited(limit = 2, window = "1h", name = "server-error", refundOnServerError = true)
        public Response serverError() {
            return Response.status(503).entity("down").build();
        }
    }

    /** A bean outside HTTP whose {@code Uni} is called from a worker thread, not the event loop. */
    @ApplicationScoped
    public static class Mailer {

        @RateLimited(limit = 2, window = "1h", name = "mailer", scope = Scope.GLOBAL, refundOn = IllegalStateException.class)
        public Uni<String> send() {
            return Uni.createFrom().failure(new IllegalStateException("the mail server refused it"));
        }
    }

    @Inject
    RateLimiter limiter;

    @Inject
    Mailer mailer;

    @Test
    void aReactiveFailureOfAMethodCalledOffTheEventLoopIsRefunded() {
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> mailer.send().await().indefinitely())
                    .as("every failed send refunded (2 an hour): none is refused").isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aMatchingExceptionIsRefundedBeforeTheResponse() {
        String tenant = tenant();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/refunds/matching").then().statusCode(500);
        }
        assertThat(remaining("matching", tenant)).isEqualTo(2);
    }

    @Test
    void aReactiveFailureIsRefundedByTheExceptionsSuperclass() {
        String tenant = tenant();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/refunds/reactive").then().statusCode(500);
        }
        assertThat(remaining("reactive", tenant)).isEqualTo(2);
    }

    @Test
    void anotherExceptionCounts() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).get("/refunds/other").then().statusCode(500);
        given().header("X-Tenant-Id", tenant).get("/refunds/other").then().statusCode(500);
        given().header("X-Tenant-Id", tenant).get("/refunds/other").then().statusCode(429);
        assertThat(remaining("other", tenant)).isZero();
    }

    @Test
    void aServerErrorResponseIsRefunded() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).get("/refunds/server-error").then().statusCode(503);
        // refunded as the response goes out, not before it: await it
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> remaining("server-error", tenant) == 2);
    }

    private long remaining(String name, String tenant) {
        return limiter.status(RateLimit.of(name, 2, Duration.ofHours(1)), tenant).await().indefinitely().remaining();
    }

    private static String tenant() {
        return "refund-" + UUID.randomUUID();
    }
}
