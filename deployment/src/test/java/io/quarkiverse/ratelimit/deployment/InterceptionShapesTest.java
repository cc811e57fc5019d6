package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/** Reactive return types, class-level limits, repeated limits and calls that are not HTTP requests. */
class InterceptionShapesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Shapes.class, ClassLevel.class, EmailQuota.class));

    @Path("/shapes")
    public static class Shapes {

        static final AtomicInteger uniInvocations = new AtomicInteger();

        @GET
        @Path("uni/{tenant}")
        @RateLimited(limit = 2, window = "1h")
        public Uni<String> uni(@PathParam("tenant") String tenant) {
            uniInvocations.incrementAndGet();
            return Uni.createFrom().item("uni");
        }

        @GET
        @Path("stage")
        @RateLimited(limit = 1, window = "1h")
        public CompletionStage<String> stage() {
            return CompletableFuture.completedFuture("stage");
        }

        @GET
        @Path("multi")
        @RateLimited(limit = 1, window = "1h")
        public Multi<String> multi() {
            return Multi.createFrom().items("a", "b");
        }

        @GET
        @Path("expensive")
        @RateLimited(limit = 5, window = "1h", cost = 2)
        public String expensive() {
            return "expensive";
        }

        @GET
        @Path("two-limits")
        @RateLimited(limit = 3, window = "1h")
        @RateLimited(limit = 1, window = "1d")
        public String twoLimits() {
            return "two";
        }
    }

    @Path("/class-level")
    @RateLimited(limit = 2, window = "1h")
    public static class ClassLevel {

        @GET
        public String inherited() {
            return "class";
        }

        @GET
        @Path("own")
        @RateLimited(limit = 1, window = "1h")
        public String own() {
            return "own";
        }
    }

    @ApplicationScoped
    public static class EmailQuota {
        @RateLimited(limit = 2, window = "1h", name = "email-quota")
        public String send() {
            return "sent";
        }
    }

    @Inject
    EmailQuota emailQuota;

    @Test
    void aUniMethodIsNotInvokedWhenRefused() {
        given().get("/shapes/uni/a").then().statusCode(200).body(equalTo("uni"));
        given().get("/shapes/uni/a").then().statusCode(200);
        int invocationsBefore = Shapes.uniInvocations.get();
        given().get("/shapes/uni/a").then().statusCode(429);
        assertThat(Shapes.uniInvocations.get()).isEqualTo(invocationsBefore);
    }

    @Test
    void completionStageAndMultiMethodsAreLimited() {
        given().get("/shapes/stage").then().statusCode(200).body(equalTo("stage"));
        given().get("/shapes/stage").then().statusCode(429);
        given().get("/shapes/multi").then().statusCode(200);
        given().get("/shapes/multi").then().statusCode(429);
    }

    @Test
    void everyLimitOfAMethodMustAdmitAndTheHeadersCarryAllPolicies() {
        given().get("/shapes/two-limits").then().statusCode(200)
                .header("RateLimit-Policy", "\"Shapes.twoLimits-1h\";q=3;w=3600, \"Shapes.twoLimits-1d\";q=1;w=86400")
                .header("RateLimit", matchesPattern(
                        "\"Shapes\\.twoLimits-1h\";r=2;t=\\d+, \"Shapes\\.twoLimits-1d\";r=0;t=\\d+"));
        given().get("/shapes/two-limits").then().statusCode(429)
                .body("violated-policies", equalTo(List.of("Shapes.twoLimits-1d")))
                // refused by the daily limit: the hourly one still has 2 left, nothing was consumed
                .header("RateLimit", matchesPattern(
                        "\"Shapes\\.twoLimits-1h\";r=2;t=\\d+, \"Shapes\\.twoLimits-1d\";r=0;t=\\d+"));
    }

    @Test
    void aCallCostsItsCostAndIsRefusedWhenLessIsLeft() {
        given().get("/shapes/expensive").then().statusCode(200)
                .header("RateLimit", matchesPattern("\"Shapes\\.expensive\";r=3;t=\\d+"));
        given().get("/shapes/expensive").then().statusCode(200)
                .header("RateLimit", matchesPattern("\"Shapes\\.expensive\";r=1;t=\\d+"));
        given().get("/shapes/expensive").then().statusCode(429)
                .header("RateLimit", matchesPattern("\"Shapes\\.expensive\";r=1;t=\\d+"));
    }

    @Test
    void aClassLevelLimitCoversEachMethodAndAMethodLimitReplacesIt() {
        given().get("/class-level").then().statusCode(200)
                .header("RateLimit-Policy", "\"ClassLevel.inherited\";q=2;w=3600");
        given().get("/class-level").then().statusCode(200);
        given().get("/class-level").then().statusCode(429);
        given().get("/class-level/own").then().statusCode(200)
                .header("RateLimit-Policy", "\"ClassLevel.own\";q=1;w=3600");
        given().get("/class-level/own").then().statusCode(429);
    }

    @Test
    void aBeanCalledOutsideHttpIsLimitedInTheSharedAnonymousBucket() {
        assertThat(emailQuota.send()).isEqualTo("sent");
        assertThat(emailQuota.send()).isEqualTo("sent");
        assertThatThrownBy(emailQuota::send)
                .isInstanceOfSatisfying(RateLimitExceededException.class, refused -> {
                    RateLimitDecision violation = refused.violations().get(0);
                    assertThat(violation.limitName()).isEqualTo("email-quota");
                    assertThat(violation.remaining()).isZero();
                    assertThat(violation.retryAfter()).isPositive();
                });
    }
}
