package io.quarkiverse.ratelimit.deployment.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RefusedCaller;
import io.quarkiverse.ratelimit.Scope;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Who is refused most ({@link RateLimitAdmin#refusedMost}): tenants and caller addresses, by their refused calls, the
 * most refused first, from the Java API and the administration endpoint; a bad period or top is a 400.
 */
class RefusedMostTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", "200ms") // reports every 200 ms
            .overrideConfigKey("quarkus.rate-limit.admin.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
            .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
            .overrideConfigKey("quarkus.security.users.embedded.users.ops", "ops-password")
            .overrideConfigKey("quarkus.security.users.embedded.roles.ops", "rate-limit-admin")
            .overrideConfigKey("quarkus.http.auth.basic", "true");

    @Path("/")
    public static class Orders {

        @GET
        @Path("orders")
        @RateLimited(limit = 1, window = "1h")
        public String orders() {
            return "orders";
        }

        @GET
        @Path("signup")
        @RateLimited(limit = 1, window = "1h", scope = Scope.CLIENT_ADDRESS)
        public String signup() {
            return "signed up";
        }
    }

    @Inject
    RateLimitAdmin admin;

    @Inject
    MeterRegistry registry;

    @Test
    void theMostRefusedTenantsAndAddressesComeFirstWithTheirRefusals() {
        String flooding = tenant(), busy = tenant(), calm = tenant();
        refuse(flooding, 30);
        refuse(busy, 20);
        refuse(calm, 10);
        for (int i = 0; i < 5; i++) {
            given().get("/signup");
        }

        List<RefusedCaller> expected = List.of(new RefusedCaller(RateLimitSubject.tenant(flooding), 30),
                new RefusedCaller(RateLimitSubject.tenant(busy), 20),
                new RefusedCaller(RateLimitSubject.tenant(calm), 10),
                new RefusedCaller(RateLimitSubject.clientAddress("127.0.0.1"), 4));
        Awaitility.await("reported within a heartbeat").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(admin.refusedMost(Duration.ofMinutes(5), 10))
                        .as("in order, with their refusals (other tests' callers may be among them)")
                        .containsSubsequence(expected));

        given().auth().preemptive().basic("ops", "ops-password").get("/q/rate-limit/refused?minutes=60&top=10").then()
                .statusCode(200).body("tenant", hasItems(flooding, busy, calm))
                .body("clientAddress", hasItem("127.0.0.1"));
    }

    @Test
    void theGaugesTellHowManyCallersARefusedAndTheShareOfTheMostRefused() {
        String tenant = tenant();
        given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(200);
        Awaitility.await("a heartbeat that saw this tenant's refusals only").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> {
                    for (int i = 0; i < 20; i++) {
                        given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(429);
                    }
                    assertThat(registry.get("rate_limit.refused.callers").gauge().value()).isEqualTo(1.0);
                    assertThat(registry.get("rate_limit.refused.top_share").gauge().value()).isEqualTo(1.0);
                });
    }

    @Test
    void aPeriodOrATopOutOfRangeIsABadRequest() {
        for (String query : new String[] { "minutes=0", "minutes=61", "minutes=five", "minutes=99999999999999",
                "minutes=-5", "top=0", "top=1001" }) {
            assertThat(given().auth().preemptive().basic("ops", "ops-password").get("/q/rate-limit/refused?" + query)
                    .statusCode()).as(query).isEqualTo(400);
        }
    }

    /** One admitted call of {@code tenant}, then {@code refusals} refused ones. */
    private static void refuse(String tenant, int refusals) {
        given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(200);
        for (int i = 0; i < refusals; i++) {
            given().header("X-Tenant-Id", tenant).get("/orders").then().statusCode(429);
        }
    }

    private static String tenant() {
        return "refused-" + UUID.randomUUID();
    }
}
