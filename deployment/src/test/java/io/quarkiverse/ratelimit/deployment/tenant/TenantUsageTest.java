package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitUsage;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Scope;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A tenant's own usage ({@link RateLimiter#usage}): every per-tenant limit of the application, as its calls are decided
 * (plan, run-time limit), read without counting; limits split by a parameter and global ones are not the tenant's to
 * list.
 */
class TenantUsageTest {

    /** The name of the policy's limit on {@code label()}, as its {@code RateLimit-Policy} header names it. */
    static final String LABELS = "Shipping.label-1h";

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Shipping.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.plans.enterprise.labels.limit", "100")
            .overrideConfigKey("quarkus.rate-limit.tenants.acme.plan", "enterprise");

    @Path("/shipping")
    public static class Shipping {

        @GET
        @Path("labels")
        @RateLimited(policy = "labels", limit = 10, window = "1h")
        @RateLimited(name = "labels-spacing", limit = 5, window = "1h", algorithm = Algorithm.GCRA)
        public String label() {
            return "label";
        }

        @GET
        @Path("rates/{carrier}")
        @RateLimited(name = "rates-per-carrier", limit = 3, window = "1h", perParameter = "carrier")
        @RateLimited(name = "rates-everyone", limit = 1000, window = "1h", scope = Scope.GLOBAL)
        public String rates(@PathParam("carrier") String carrier) {
            return carrier;
        }
    }

    @Inject
    RateLimiter limiter;

    @Inject
    RateLimitAdmin admin;

    @Test
    void listsTheTenantsLimitsWithWhatIsLeftAndCountsNothing() {
        String tenant = "usage-" + UUID.randomUUID();
        assertThat(calls(tenant, "/shipping/labels", 3)).isEqualTo(3);
        given().header("X-Tenant-Id", tenant).get("/shipping/rates/ups").then().statusCode(200);

        for (int i = 0; i < 20; i++) {
            assertThat(limiter.usageAndAwait(tenant)).hasSize(2);
        }
        Map<String, RateLimitUsage> usage = byName(limiter.usage(tenant).await().atMost(Duration.ofSeconds(10)));
        assertThat(usage).as("per tenant, not split by a parameter").containsOnlyKeys(LABELS, "labels-spacing");
        RateLimitUsage labels = usage.get(LABELS);
        assertThat(labels.limit()).isEqualTo(10);
        assertThat(labels.window()).isEqualTo(Duration.ofHours(1));
        assertThat(labels.remaining()).isEqualTo(7);
        assertThat(labels.inDebt()).isFalse();
        assertThat(labels.mode()).isEqualTo(Mode.ENFORCE);
        assertThat(labels.resetAfter()).isPositive();
        assertThat(usage.get("labels-spacing").remaining()).isEqualTo(2);

        assertThat(calls(tenant, "/shipping/labels", 5)).as("20 reads of the usage counted nothing").isEqualTo(2);
    }

    @Test
    void showsTheValuesOfTheTenantsPlanAndRunTimeLimit() {
        assertThat(byName(limiter.usageAndAwait("acme")).get(LABELS).limit()).as("enterprise").isEqualTo(100);

        String tenant = "usage-" + UUID.randomUUID();
        admin.setLimit(tenant, "labels", 50);
        assertThat(byName(limiter.usageAndAwait(tenant)).get(LABELS).limit()).as("run-time limit").isEqualTo(50);

        String indebted = "usage-" + UUID.randomUUID();
        assertThat(calls(indebted, "/shipping/labels", 3)).isEqualTo(3);
        admin.setLimit(indebted, "labels", 2);
        RateLimitUsage lowered = byName(limiter.usageAndAwait(indebted)).get(LABELS);
        assertThat(lowered.inDebt()).as("3 used of a limit lowered to 2").isTrue();
        assertThat(lowered.remaining()).isZero();
    }

    @Test
    void showsEachLimitsModeAndLeavesOutOneSwitchedOff() {
        String tenant = "usage-" + UUID.randomUUID();
        try {
            admin.setSwitches("labels-spacing", Mode.SHADOW, null, null);
            assertThat(byName(limiter.usageAndAwait(tenant)).get("labels-spacing").mode()).isEqualTo(Mode.SHADOW);
            admin.setSwitches("labels-spacing", Mode.OFF, null, null);
            assertThat(byName(limiter.usageAndAwait(tenant))).as("switched off: not the tenant's limit now")
                    .containsOnlyKeys(LABELS);
        } finally {
            admin.clearSwitches("labels-spacing");
        }
    }

    private static Map<String, RateLimitUsage> byName(List<RateLimitUsage> usage) {
        return usage.stream().collect(Collectors.toMap(RateLimitUsage::name, Function.identity()));
    }

    private static int calls(String tenant, String path, int calls) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            if (given().header("X-Tenant-Id", tenant).get(path).statusCode() == 200) {
                admitted++;
            }
        }
        return admitted;
    }
}
