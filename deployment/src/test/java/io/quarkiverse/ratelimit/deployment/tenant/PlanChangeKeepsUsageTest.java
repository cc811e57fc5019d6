package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.PlanResolver;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.deployment.DecisionsInFlight;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * A tenant moved to another plan keeps what it used of the current window or bucket under the new limit, for every
 * algorithm: one that used 8 of Starter's 10 gets exactly 192 more of Enterprise's 200, and moved back is refused at
 * once; a run-time limit raised or lowered counts the same usage. The state lives in Redis, so every instance sees it.
 */
class PlanChangeKeepsUsageTest {

    static final int STARTER = 10;
    static final int ENTERPRISE = 200;
    static final int USED = 8;

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Labels.class, MovablePlans.class, DecisionsInFlight.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.plans.enterprise.labels.limit", String.valueOf(ENTERPRISE))
            .overrideConfigKey("quarkus.rate-limit.plans.starter.labels.limit", String.valueOf(STARTER));

    @Path("/labels")
    public static class Labels {

        @GET
        @RateLimited(policy = "labels", limit = STARTER, window = "1h", algorithm = Algorithm.TOKEN_BUCKET)
        public String label() {
            return "label";
        }
    }

    /** A tenant's plan as the application's database says it, changed by the test as an upgrade would. */
    @ApplicationScoped
    public static class MovablePlans implements PlanResolver {

        static final Map<String, String> PLANS = new ConcurrentHashMap<>();

        @Override
        public Uni<String> resolve(String tenant, RoutingContext request) {
            return Uni.createFrom().item(PLANS.get(tenant));
        }
    }

    @Inject
    RateLimiter limiter;

    @Inject
    RateLimitAdmin admin;

    @Test
    void everyAlgorithmKeepsTheUsageAcrossAnUpgradeAndADowngrade() {
        for (Algorithm algorithm : Algorithm.values()) {
            String tenant = "moved-" + UUID.randomUUID();
            RateLimit starter = limit(algorithm, STARTER);
            RateLimit enterprise = limit(algorithm, ENTERPRISE);
            assertThat(admitted(starter, tenant, USED)).as("%s: Starter's first calls", algorithm).isEqualTo(USED);
            assertThat(admitted(enterprise, tenant, ENTERPRISE)).as("%s: upgraded to Enterprise", algorithm)
                    .isEqualTo(ENTERPRISE - USED);
            assertThat(admitted(starter, tenant, 3)).as("%s: moved back to Starter", algorithm).isZero();

            String big = "downgraded-" + UUID.randomUUID();
            assertThat(admitted(enterprise, big, 150)).isEqualTo(150);
            assertThat(admitted(starter, big, 3)).as("%s: 150 used, downgraded to Starter's 10", algorithm).isZero();
        }
    }

    @Test
    void aBucketKeepsItsUnitsUnderAPlanWithAnotherWindow() {
        for (Algorithm algorithm : List.of(Algorithm.TOKEN_BUCKET, Algorithm.GCRA)) {
            String tenant = "rewindowed-" + UUID.randomUUID();
            RateLimit hourly = RateLimit.of("plan-window-" + algorithm, STARTER, Duration.ofHours(1)).algorithm(algorithm);
            RateLimit daily = RateLimit.of("plan-window-" + algorithm, 240, Duration.ofDays(1)).algorithm(algorithm);
            assertThat(admitted(hourly, tenant, USED)).isEqualTo(USED);
            assertThat(admitted(daily, tenant, 240)).as("%s: 10 an hour, then 240 a day", algorithm).isEqualTo(240 - USED);
        }
    }

    @Test
    void aPlanResolverMovingTheTenantKeepsItsBucket() {
        String tenant = "upgraded-" + UUID.randomUUID();
        MovablePlans.PLANS.put(tenant, "starter");
        assertThat(admittedOverHttp(tenant, USED)).isEqualTo(USED);
        MovablePlans.PLANS.put(tenant, "enterprise");
        assertThat(admittedOverHttp(tenant, ENTERPRISE)).as("upgraded at run time").isEqualTo(ENTERPRISE - USED);
        MovablePlans.PLANS.put(tenant, "starter");
        assertThat(admittedOverHttp(tenant, 3)).as("moved back").isZero();
    }

    @Test
    void aRunTimeLimitRaisedOrLoweredCountsTheSameUsage() {
        String tenant = "raised-" + UUID.randomUUID();
        assertThat(admittedOverHttp(tenant, USED)).isEqualTo(USED);
        admin.setLimit(tenant, "labels", ENTERPRISE);
        assertThat(admittedOverHttp(tenant, ENTERPRISE)).as("raised").isEqualTo(ENTERPRISE - USED);
        admin.setLimit(tenant, "labels", 50);
        assertThat(admittedOverHttp(tenant, 3)).as("lowered below what it used").isZero();
        admin.removeLimit(tenant, "labels");
    }

    private static RateLimit limit(Algorithm algorithm, int limit) {
        return algorithm == Algorithm.CALENDAR_WINDOW
                ? RateLimit.of("plan-change-" + algorithm, limit, CalendarPeriod.DAY, ZoneOffset.UTC)
                : RateLimit.of("plan-change-" + algorithm, limit, Duration.ofHours(1)).algorithm(algorithm);
    }

    private int admitted(RateLimit limit, String tenant, int calls) {
        List<RateLimitDecision> decisions = DecisionsInFlight.decide(limiter, limit, tenant, calls);
        assertThat(decisions).noneMatch(RateLimitDecision::degraded);
        return (int) decisions.stream().filter(RateLimitDecision::allowed).count();
    }

    private static int admittedOverHttp(String tenant, int calls) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            if (given().header("X-Tenant-Id", tenant).get("/labels").statusCode() == 200) {
                admitted++;
            }
        }
        return admitted;
    }
}
