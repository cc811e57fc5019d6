package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import java.util.UUID;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.specification.RequestSpecification;

/** The optional administration endpoints: only for the configured role; they change limits at the next call. */
class AdminEndpointsTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Labels.class))
            .overrideConfigKey("quarkus.rate-limit.admin.enabled", "true")
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.ops", "ops-password")
            .overrideConfigKey("quarkus.security.users.embedded.roles.ops", "rate-limit-admin")
            .overrideConfigKey("quarkus.security.users.embedded.users.dev", "dev-password")
            .overrideConfigKey("quarkus.http.auth.basic", "true");

    @Path("/labels")
    public static class Labels {

        @POST
        @RateLimited(policy = "labels", limit = 2, window = "1h")
        public String label() {
            return "ok";
        }

        @POST
        @Path("/batch")
        @RateLimited(policy = "label-batches", limit = 100, window = "1h", cost = 10)
        public String batch() {
            return "ok";
        }

        @POST
        @Path("/audited")
        @RateLimited(policy = "audited-labels", limit = 100, window = "1h", algorithm = Algorithm.SLIDING_WINDOW_LOG)
        public String audited() {
            return "ok";
        }
    }

    @Test
    void onlyTheAdminRoleMayCallThem() {
        given().get("/q/rate-limit/policies").then().statusCode(401);
        given().auth().preemptive().basic("dev", "dev-password").get("/q/rate-limit/policies").then().statusCode(403);
        ops().get("/q/rate-limit/policies").then().statusCode(200).body("", hasItems("labels"));
    }

    @Test
    void anOperatorRaisesATenantsLimitAtRunTime() {
        String tenant = "tenant/" + UUID.randomUUID();
        String encoded = tenant.replace("/", "%2F");
        calls(tenant, 2, 200);
        calls(tenant, 1, 429);

        ops().contentType("application/json").body("{\"limit\": 4}")
                .put("/q/rate-limit/tenants/" + encoded + "/limits/labels").then().statusCode(204);
        ops().get("/q/rate-limit/tenants/" + encoded + "/limits").then().statusCode(200)
                .body("labels", equalTo(4));
        calls(tenant, 2, 200);
        calls(tenant, 1, 429);
        ops().get("/q/rate-limit/tenants/" + encoded + "/policies/labels").then().statusCode(200)
                .body("[0].limit", equalTo(4)).body("[0].remaining", equalTo(0));

        ops().delete("/q/rate-limit/tenants/" + encoded + "/policies/labels/counters").then().statusCode(200)
                .body("countersReset", equalTo(1));
        calls(tenant, 4, 200);
        ops().delete("/q/rate-limit/tenants/" + encoded + "/limits/labels").then().statusCode(204);
        ops().get("/q/rate-limit/tenants/" + encoded + "/limits").then().statusCode(200).body(equalTo("{}"));
    }

    @Test
    void anOperatorBlocksATenantAndLiftsIt() {
        String tenant = "blocked-" + UUID.randomUUID();
        calls(tenant, 1, 200);
        ops().put("/q/rate-limit/tenants/" + tenant + "/blocked").then().statusCode(204);
        calls(tenant, 2, 403);
        calls("other-" + UUID.randomUUID(), 1, 200);
        ops().delete("/q/rate-limit/tenants/" + tenant + "/blocked").then().statusCode(204);
        calls(tenant, 1, 200);
        calls(tenant, 1, 429);
    }

    @Test
    void badRequestsAreRefusedWithAProblem() {
        ops().contentType("application/json").body("{\"limit\": -1}")
                .put("/q/rate-limit/tenants/t/limits/labels").then().statusCode(400)
                .body(containsString("greater than zero"));
        ops().contentType("application/json").body("not json")
                .put("/q/rate-limit/tenants/t/limits/labels").then().statusCode(400);
        ops().contentType("application/json").body("{\"limit\": 5000000000000}")
                .put("/q/rate-limit/tenants/t/limits/labels").then().statusCode(400)
                .body(containsString("at most 1000000000000"));
        ops().contentType("application/json").body("{\"limit\": \"many\"}")
                .put("/q/rate-limit/tenants/t/limits/labels").then().statusCode(400);
        ops().contentType("application/json").body("{\"limit\": 99999999999999999999999}")
                .put("/q/rate-limit/tenants/t/limits/labels").then().statusCode(400);
        ops().contentType("application/json").body("{\"limit\": 5}")
                .put("/q/rate-limit/tenants/t/limits/label-batches").then().statusCode(400)
                .body(containsString("costs 10"));
        ops().contentType("application/json").body("{\"limit\": 20000}")
                .put("/q/rate-limit/tenants/t/limits/audited-labels").then().statusCode(400)
                .body(containsString("at most 10000"));
        ops().contentType("application/json").body("{\"limit\": 5}")
                .put("/q/rate-limit/tenants/t/limits/no-such-policy").then().statusCode(404)
                .body(containsString("no-such-policy"));
        ops().get("/q/rate-limit/nothing-here").then().statusCode(404);
    }

    private static RequestSpecification ops() {
        return given().urlEncodingEnabled(false).auth().preemptive().basic("ops", "ops-password");
    }

    private static void calls(String tenant, int count, int status) {
        for (int i = 0; i < count; i++) {
            given().header("X-Tenant-Id", tenant).post("/labels").then().statusCode(status);
        }
    }
}
