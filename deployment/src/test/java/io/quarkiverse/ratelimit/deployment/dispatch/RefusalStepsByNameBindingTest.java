package io.quarkiverse.ratelimit.deployment.dispatch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.runtime.http.RestSteps;
import io.quarkiverse.ratelimit.runtime.limit.MethodIds;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.NonBlocking;

/**
 * Which endpoints' refusals go through the application's filters is known at build time, from the filters the
 * application declares: a {@code @Provider} response filter bound by name sees the refusals of the endpoint that
 * carries its binding, and only those; a request filter bound by name before the limiter keeps that endpoint's
 * refusals from being answered before Quarkus REST, and only that endpoint's.
 */
class RefusalStepsByNameBindingTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Audited.class, Guarded.class, Endpoints.class, AuditFilter.class,
                    GuardFilter.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @NameBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ ElementType.TYPE, ElementType.METHOD })
    public @interface Audited {
    }

    @NameBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ ElementType.TYPE, ElementType.METHOD })
    public @interface Guarded {
    }

    @Path("/steps")
    public static class Endpoints {

        @GET
        @Path("audited")
        @Audited
        @RateLimited(limit = 1, window = "1h")
        public String audited() {
            return "ok";
        }

        @GET
        @Path("guarded")
        @Guarded
        @RateLimited(limit = 1, window = "1h")
        public String guarded() {
            return "ok";
        }

        @GET
        @Path("plain")
        @RateLimited(limit = 1, window = "1h")
        public String plain() {
            return "ok";
        }
    }

    @Provider
    @Audited
    public static class AuditFilter implements ContainerResponseFilter {

        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            response.getHeaders().putSingle("X-Audited", "yes");
        }
    }

    /** Before the limiter's filter (500), so non-blocking as Quarkus REST requires of it. */
    @Provider
    @Guarded
    @Priority(100)
    @NonBlocking
    public static class GuardFilter implements ContainerRequestFilter {

        @Override
        public void filter(ContainerRequestContext request) {
        }
    }

    @Inject
    RestSteps steps;

    @Test
    void theBuildRecordsWhichEndpointsTheApplicationsFiltersSee() {
        String audited = id("audited");
        String guarded = id("guarded");
        String plain = id("plain");
        assertThat(steps.answersGoStraightOut(audited)).isFalse();
        assertThat(steps.answersGoStraightOut(guarded)).isTrue();
        assertThat(steps.answersGoStraightOut(plain)).isTrue();
        assertThat(steps.nothingBeforeLimiter(guarded)).isFalse();
        assertThat(steps.nothingBeforeLimiter(audited)).isTrue();
        assertThat(steps.nothingBeforeLimiter(plain)).isTrue();
    }

    @Test
    void aResponseFilterBoundByNameSeesTheRefusalsOfItsEndpointOnly() {
        String tenant = UUID.randomUUID().toString();
        given().header("X-Tenant-Id", tenant).get("/steps/audited").then().statusCode(200)
                .header("X-Audited", equalTo("yes"));
        given().header("X-Tenant-Id", tenant).get("/steps/audited").then().statusCode(429)
                .header("X-Audited", equalTo("yes"));
        given().header("X-Tenant-Id", tenant).get("/steps/plain").then().statusCode(200)
                .header("X-Audited", nullValue());
        given().header("X-Tenant-Id", tenant).get("/steps/plain").then().statusCode(429)
                .header("X-Audited", nullValue());
    }

    private static String id(String method) {
        return MethodIds.of(Endpoints.class.getName(), method, List.of());
    }
}
