package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.PlanResolver;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Named policies take their values from configuration, plans give tenants their own values, run-time limits set through
 * {@link RateLimitAdmin} apply at the next call, and allow/deny lists exempt or block tenants.
 */
class PoliciesAndPlansTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Carriers.class, PlansByPrefix.class, Shared.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            // the annotation says 100: configuration wins
            .overrideConfigKey("quarkus.rate-limit.policies.rates.limit", "3")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.limit", "2")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.window", "1h")
            .overrideConfigKey("quarkus.rate-limit.plans.enterprise.labels.limit", "5")
            .overrideConfigKey("quarkus.rate-limit.plans.enterprise.rates.limit", "6")
            .overrideConfigKey("quarkus.rate-limit.plans.starter.labels.limit", "1")
            .overrideConfigKey("quarkus.rate-limit.tenants.acme.plan", "enterprise")
            .overrideConfigKey("quarkus.rate-limit.tenants.\"tiny.shop\".plan", "starter")
            .overrideConfigKey("quarkus.rate-limit.exempt-tenants", "internal-billing")
            .overrideConfigKey("quarkus.rate-limit.blocked-tenants", "abuser");

    @Path("/carriers/{carrier}")
    public static class Carriers {

        @POST
        @Path("labels")
        @RateLimited(policy = "labels", perParameter = "carrier")
        public String label(@PathParam("carrier") String carrier) {
            return carrier;
        }

        @GET
        @Path("rates")
        @RateLimited(policy = "rates", limit = 100, window = "1h", perEndpoint = true)
        public String rates(@PathParam("carrier") String carrier) {
            return carrier;
        }
    }

    /** One limit name on two endpoints: shared by default, split with {@code perEndpoint}. */
    @Path("/shared")
    public static class Shared {

        @GET
        @Path("a")
        @RateLimited(limit = 2, window = "1h", name = "shared-name")
        @RateLimited(limit = 2, window = "1h", name = "split-name", perEndpoint = true)
        public String a() {
            return "a";
        }

        @GET
        @Path("b")
        @RateLimited(limit = 2, window = "1h", name = "shared-name")
        public String b() {
            return "b";
        }

        @POST
        @Path("a")
        @RateLimited(limit = 2, window = "1h", name = "split-name", perEndpoint = true)
        public String postA() {
            return "a";
        }
    }

    /** Tenants named {@code ent-*} are on the enterprise plan, as a database lookup would say. */
    @ApplicationScoped
    public static class PlansByPrefix implements PlanResolver {

        @Override
        public Uni<String> resolve(String tenant, RoutingContext request) {
            return Uni.createFrom().item(tenant.startsWith("ent-") ? "enterprise" : null);
        }
    }

    @Inject
    RateLimitAdmin admin;

    @Test
    void aPolicysConfiguredValuesReplaceTheAnnotations() {
        String tenant = "plain-" + UUID.randomUUID();
        assertThat(admitted(tenant, "get", "/carriers/ups/rates", 10)).isEqualTo(3);
        given().header("X-Tenant-Id", tenant).get("/carriers/ups/rates").then()
                .header("RateLimit-Policy", "\"Carriers.rates\";q=3;w=3600");
    }

    @Test
    void eachPlanHasItsOwnLimitsAndATenantWithoutPlanThePolicys() {
        assertThat(admitted("acme", "post", "/carriers/ups/labels", 10)).as("enterprise by configuration").isEqualTo(5);
        assertThat(admitted("tiny.shop", "post", "/carriers/ups/labels", 10)).as("starter").isEqualTo(1);
        assertThat(admitted("ent-" + UUID.randomUUID(), "post", "/carriers/ups/labels", 10))
                .as("enterprise by the PlanResolver").isEqualTo(5);
        assertThat(admitted("none-" + UUID.randomUUID(), "post", "/carriers/ups/labels", 10)).as("no plan")
                .isEqualTo(2);
        assertThat(admitted("acme", "get", "/carriers/ups/rates", 10)).as("enterprise, other policy").isEqualTo(6);
    }

    @Test
    void perParameterGivesEachCarrierItsOwnCounter() {
        String tenant = "carriers-" + UUID.randomUUID();
        assertThat(admitted(tenant, "post", "/carriers/ups/labels", 5)).isEqualTo(2);
        assertThat(admitted(tenant, "post", "/carriers/dhl/labels", 5)).isEqualTo(2);
        assertThat(admitted(tenant, "post", "/carriers/ups:dhl*/labels", 5)).as("a hostile carrier value").isEqualTo(2);
    }

    @Test
    void endpointsShareACounterOnlyByNameAndPerEndpointSplitsItAgain() {
        String tenant = "endpoints-" + UUID.randomUUID();
        assertThat(admitted(tenant, "get", "/shared/a", 1) + admitted(tenant, "get", "/shared/b", 3))
                .as("GET a and GET b share 'shared-name'").isEqualTo(2);

        String other = "endpoints-" + UUID.randomUUID();
        assertThat(admitted(other, "get", "/shared/a", 3)).isEqualTo(2);
        assertThat(admitted(other, "post", "/shared/a", 3)).as("POST a: its own 'split-name' counter").isEqualTo(2);
    }

    @Test
    void aRunTimeLimitAppliesAtTheNextCallAndCanBeRemoved() {
        String tenant = "raised-" + UUID.randomUUID();
        assertThat(admitted(tenant, "post", "/carriers/fedex/labels", 5)).isEqualTo(2);

        admin.setLimit(tenant, "labels", 4);
        assertThat(admin.limits(tenant)).isEqualTo(Map.of("labels", 4L));
        assertThat(admitted(tenant, "post", "/carriers/fedex/labels", 5)).as("2 more of 4").isEqualTo(2);
        given().header("X-Tenant-Id", tenant).post("/carriers/fedex/labels").then().statusCode(429)
                .header("RateLimit-Policy", containsString(";q=4;"));

        admin.removeLimit(tenant, "labels");
        assertThat(admin.limits(tenant)).isEmpty();
    }

    @Test
    void theAdminReadsAndResetsATenantsCounters() {
        String tenant = "reset-" + UUID.randomUUID();
        assertThat(admitted(tenant, "get", "/carriers/ups/rates", 2)).isEqualTo(2);
        List<RateLimitDecision> status = admin.status(tenant, "rates");
        assertThat(status).singleElement().satisfies(decision -> {
            assertThat(decision.limit()).isEqualTo(3);
            assertThat(decision.remaining()).isEqualTo(1);
        });

        admin.reset(tenant, "rates");
        assertThat(admitted(tenant, "get", "/carriers/ups/rates", 10)).isEqualTo(3);
        assertThat(admin.policies()).contains("labels", "rates");
    }

    @Test
    void theAdminRefusesAnUnknownPolicy() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> admin.setLimit("t", "no-such-policy", 5))
                .withMessageContaining("no-such-policy").withMessageContaining("labels");
    }

    @Test
    void aTenantBlockedAtRunTimeIsForbiddenUntilUnblocked() {
        String tenant = "run-time-blocked-" + UUID.randomUUID();
        admin.block(tenant);
        given().header("X-Tenant-Id", tenant).get("/carriers/ups/rates").then().statusCode(403);
        assertThat(admin.limits(tenant)).as("blocking is not a limit").isEmpty();
        admin.unblock(tenant);
        given().header("X-Tenant-Id", tenant).get("/carriers/ups/rates").then().statusCode(200);
    }

    @Test
    void exemptTenantsAreNotCountedAndBlockedTenantsAreForbidden() {
        assertThat(admitted("internal-billing", "post", "/carriers/ups/labels", 20)).isEqualTo(20);
        given().header("X-Tenant-Id", "internal-billing").post("/carriers/ups/labels").then()
                .statusCode(200).header("RateLimit", org.hamcrest.Matchers.nullValue());
        given().header("X-Tenant-Id", "abuser").post("/carriers/ups/labels").then().statusCode(403)
                .body(org.hamcrest.Matchers.not(containsString("abuser")));
    }

    private static int admitted(String tenant, String method, String path, int calls) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            int status = given().header("X-Tenant-Id", tenant).request(method, path).then().extract().statusCode();
            assertThat(status).isIn(200, 429);
            admitted += status == 200 ? 1 : 0;
        }
        return admitted;
    }
}
