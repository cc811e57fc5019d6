package io.quarkiverse.ratelimit.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.util.List;
import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkus.test.QuarkusUnitTest;

/** Limits that count each tenant, each client address, or everyone, on one method and in one atomic call. */
class ScopeTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Scoped.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id");

    @Path("/scoped")
    public static class Scoped {

        @GET
        @Path("mixed")
        @RateLimited(limit = 2, window = "1h", name = "per-tenant")
        @RateLimited(limit = 5, window = "1h", name = "everyone", scope = Scope.GLOBAL)
        public String mixed() {
            return "mixed";
        }

        @GET
        @Path("layout")
        @RateLimited(limit = 100, window = "1h", name = "layout-tenant")
        @RateLimited(limit = 100, window = "1h", name = "layout-everyone", scope = Scope.GLOBAL)
        public String layout() {
            return "layout";
        }

        @GET
        @Path("login")
        @RateLimited(limit = 3, window = "1h", name = "login-per-address", scope = Scope.CLIENT_ADDRESS)
        public String login() {
            return "login";
        }
    }

    @Test
    void aGlobalLimitCountsEveryTenantWhileEachTenantKeepsItsOwn() {
        String a = tenant(), b = tenant(), c = tenant();
        for (String tenant : List.of(a, a, b, b)) {
            given().header("X-Tenant-Id", tenant).get("/scoped/mixed").then().statusCode(200);
        }
        given().header("X-Tenant-Id", a).get("/scoped/mixed").then().statusCode(429)
                .body("violated-policies", equalTo(List.of("per-tenant")));
        given().header("X-Tenant-Id", c).get("/scoped/mixed").then().statusCode(200);
        given().header("X-Tenant-Id", tenant()).get("/scoped/mixed").then().statusCode(429)
                .body("violated-policies", equalTo(List.of("everyone")));
    }

    @Test
    void aClientAddressLimitIgnoresTheTenantAndNeedsNoTenantHeader() {
        given().header("X-Tenant-Id", tenant()).get("/scoped/login").then().statusCode(200);
        given().header("X-Tenant-Id", tenant()).get("/scoped/login").then().statusCode(200);
        given().get("/scoped/login").then().statusCode(200);
        given().header("X-Tenant-Id", tenant()).get("/scoped/login").then().statusCode(429);
    }

    @Test
    void everyKeyOfAMixedCallSharesTheCallsHashTag() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).get("/scoped/layout").then().statusCode(200);
        URI redis = URI.create(ConfigProvider.getConfig().getValue("quarkus.redis.hosts", String.class));
        try (RespConnection connection = RespConnection.open(redis.getHost(), redis.getPort(),
                java.time.Duration.ofSeconds(5))) {
            assertThat(connection.command("EXISTS",
                    "rate-limit:{~m:layout-everyone}:" + tenant + ":layout-tenant:sw",
                    "rate-limit:{~m:layout-everyone}:~global:layout-everyone:sw")).isEqualTo(2L);
        }
    }

    private static String tenant() {
        return "scope-" + UUID.randomUUID();
    }
}
