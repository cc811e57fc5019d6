package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.TenantResolver;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.specification.RequestSpecification;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Each tenant source gives each tenant its own counter (limit 2: a tenant's third call is refused while another
 * tenant's first is admitted), and each missing-tenant behaviour does what it says, never a 500.
 */
class TenantSourcesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Sources.class, ApiKeyTenants.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.tenant.path-parameter", "account")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.alice", "alice-password")
            .overrideConfigKey("quarkus.security.users.embedded.users.bob", "bob-password")
            .overrideConfigKey("quarkus.http.auth.basic", "true")
            .overrideConfigKey("quarkus.rate-limit.policies.shared-anonymous.tenant.missing", "anonymous")
            .overrideConfigKey("quarkus.rate-limit.policies.shared-anonymous.tenant.source", "principal")
            .overrideConfigKey("quarkus.rate-limit.policies.teapot.tenant.missing-status", "418")
            .overrideConfigKey("quarkus.rate-limit.policies.login.scope", "client-address");

    @Path("/sources")
    public static class Sources {

        @GET
        @Path("header")
        @RateLimited(limit = 2, window = "1h", tenant = TenantSource.HEADER)
        public String header() {
            return "ok";
        }

        @GET
        @Path("principal")
        @RateLimited(limit = 2, window = "1h", tenant = TenantSource.PRINCIPAL)
        public String principal() {
            return "ok";
        }

        @GET
        @Path("accounts/{account}")
        @RateLimited(limit = 2, window = "1h", tenant = TenantSource.PATH_PARAMETER)
        public String pathParameter(@PathParam("account") String account) {
            return account;
        }

        @GET
        @Path("resolver")
        @RateLimited(limit = 2, window = "1h", tenant = TenantSource.RESOLVER)
        public Uni<String> resolver() {
            return Uni.createFrom().item("ok");
        }

        @GET
        @Path("anonymous")
        @RateLimited(limit = 2, window = "1h", policy = "shared-anonymous")
        public String sharedAnonymous() {
            return "ok";
        }

        @GET
        @Path("login")
        @RateLimited(limit = 2, window = "1h", policy = "login")
        public String login() {
            return "ok";
        }

        @GET
        @Path("teapot")
        @RateLimited(limit = 2, window = "1h", policy = "teapot")
        public String teapot() {
            return "ok";
        }
    }

    /** The tenant is the API key's account, looked up asynchronously; no key, no tenant. */
    @ApplicationScoped
    public static class ApiKeyTenants implements TenantResolver {

        @Override
        public Uni<String> resolve(RoutingContext request) {
            String key = request == null ? null : request.request().getHeader("X-Api-Key");
            return Uni.createFrom().item(key == null ? null : "account-of-" + key);
        }
    }

    @Test
    void theHeaderNamesTheTenant() {
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        assertOwnCounters("/sources/header", given().header("X-Tenant-Id", first),
                given().header("X-Tenant-Id", second));
        given().get("/sources/header").then().statusCode(400)
                .body(containsString("The request header X-Tenant-Id is required"));
    }

    @Test
    void thePrincipalIsTheTenantAndAnAnonymousCallIsUnauthorized() {
        assertOwnCounters("/sources/principal", given().auth().preemptive().basic("alice", "alice-password"),
                given().auth().preemptive().basic("bob", "bob-password"));
        given().get("/sources/principal").then().statusCode(401)
                .body(containsString("Authentication is required"));
    }

    @Test
    void thePathParameterNamesTheTenant() {
        String first = "acct-" + UUID.randomUUID();
        String second = "acct-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) {
            given().get("/sources/accounts/" + first).then().statusCode(200);
        }
        given().get("/sources/accounts/" + first).then().statusCode(429);
        given().get("/sources/accounts/" + second).then().statusCode(200);
    }

    @Test
    void hostilePathParameterTenantsNeitherBreakNorShareKeys() {
        // ':' escapes to %3A and '%' to %25, so these two never share a tag; the long ones are hashed apart
        List<String> hostile = List.of("a:b", "a%3Ab", "{x}", "*", "x".repeat(300), "x".repeat(299) + "y",
                "\u00e9t\u00e9", "a b");
        for (String tenant : hostile) {
            String path = "/sources/accounts/" + URLEncoder.encode(tenant, StandardCharsets.UTF_8).replace("+", "%20");
            given().urlEncodingEnabled(false).get(path).then().statusCode(200);
            given().urlEncodingEnabled(false).get(path).then().statusCode(200);
            given().urlEncodingEnabled(false).get(path).then().statusCode(429);
        }
    }

    @Test
    void theApplicationsResolverNamesTheTenantAndNoneIsABadRequest() {
        assertOwnCounters("/sources/resolver", given().header("X-Api-Key", UUID.randomUUID().toString()),
                given().header("X-Api-Key", UUID.randomUUID().toString()));
        given().get("/sources/resolver").then().statusCode(400)
                .body(containsString("could not be determined"));
    }

    @Test
    void callsWithoutTenantCanShareOneAnonymousBucket() {
        given().get("/sources/anonymous").then().statusCode(200);
        given().get("/sources/anonymous").then().statusCode(200);
        given().get("/sources/anonymous").then().statusCode(429);
        given().auth().preemptive().basic("alice", "alice-password").get("/sources/anonymous").then().statusCode(200);
    }

    @Test
    void aPolicyCanCountPerClientAddressInstead() {
        // a login endpoint: every caller from this address shares one bucket, whatever tenant it claims, and needs none
        given().get("/sources/login").then().statusCode(200);
        given().header("X-Tenant-Id", UUID.randomUUID().toString()).get("/sources/login").then().statusCode(200);
        given().header("X-Tenant-Id", UUID.randomUUID().toString()).get("/sources/login").then().statusCode(429);
    }

    @Test
    void theMissingTenantStatusIsConfigurablePerPolicy() {
        given().get("/sources/teapot").then().statusCode(418).body(containsString("X-Tenant-Id"));
    }

    private static void assertOwnCounters(String path, RequestSpecification first, RequestSpecification second) {
        first.get(path).then().statusCode(200);
        first.get(path).then().statusCode(200);
        first.get(path).then().statusCode(429);
        second.get(path).then().statusCode(200);
    }
}
