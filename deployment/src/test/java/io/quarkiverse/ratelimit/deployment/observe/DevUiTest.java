package io.quarkiverse.ratelimit.deployment.observe;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.matchesPattern;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.devui.tests.DevUIJsonRPCTest;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI card's JSON-RPC methods, as its pages call them: the limits, a tenant's status and reset, who is refused
 * most, the breaker.
 */
public class DevUiTest extends DevUIJsonRPCTest {

    static final TestRedis REDIS = TestRedis.named("dev-ui");

    @RegisterExtension
    static final QuarkusDevModeTest app = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClasses(Mail.class, Mailing.class, Recipients.class, Quota.class)
                    .addAsResource(new StringAsset(String.join("\n",
                            "quarkus.redis.hosts=" + REDIS.uri(),
                            "quarkus.rate-limit.tenant.header=X-Tenant-Id",
                            "quarkus.rate-limit.policies.e-mail.limit=5",
                            "quarkus.rate-limit.policies.e-mail.window=1h")), "application.properties"));

    public DevUiTest() {
        super("io.quarkiverse.ratelimit.quarkus-rate-limit");
    }

    @Path("/mail")
    public static class Mail {

        @GET
        @RateLimited(policy = "e-mail", algorithm = Algorithm.FIXED_WINDOW, failureMode = FailureMode.FAIL_CLOSED)
        public String send() {
            return "sent";
        }
    }

    /** A mailing's real cost: its recipients, known once it was sent. */
    public static class Recipients implements CostOf<Integer> {
        @Override
        public long cost(Integer recipients) {
            return recipients;
        }
    }

    @Path("/mailing")
    public static class Mailing {

        @GET
        @RateLimited(name = "mailing-recipients", limit = 10, window = "1h", cost = 1, costOf = Recipients.class)
        public Integer send(@QueryParam("recipients") int recipients) {
            return recipients;
        }
    }

    /** A limit made in code: known to the card once a call used it. */
    @Path("/quota")
    public static class Quota {

        static final RateLimit QUOTA = RateLimit.of("quota-from-code", 3, Duration.ofHours(1));

        @Inject
        RateLimiter limiter;

        @GET
        public String take(@QueryParam("tenant") String tenant) {
            return limiter.tryAcquireAndAwait(QUOTA, tenant).allowed() ? "taken" : "refused";
        }
    }

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    /** One test: the dev-mode application starts once per test method, for about 15 s. */
    @Test
    void theCardsServiceAnswersItsPages() throws Exception {
        listsEachLimitAsDeclaredAndAsConfigured();
        looksUpATenantAndResetsIt();
        showsTheBreakerAndTheCounters();
        showsALimitMadeInCodeOnceACallUsedIt();
        listsTheCallersRefusedMost();
    }

    private void listsTheCallersRefusedMost() {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 5; i++) {
            given().header("X-Tenant-Id", tenant).get("/mail").then().statusCode(200);
        }
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/mail").then().statusCode(429);
        }
        Awaitility.await("reported within a fleet heartbeat").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonNode refused = executeJsonRPCMethod("refusedMost", Map.of("minutes", 5));
            assertThat(refused).anySatisfy(caller -> {
                assertThat(caller.get("caller").asText()).isEqualTo(tenant);
                assertThat(caller.get("kind").asText()).isEqualTo("tenant");
                assertThat(caller.get("refusals").asLong()).isEqualTo(3);
            });
        });
    }

    private void showsALimitMadeInCodeOnceACallUsedIt() throws Exception {
        String tenant = UUID.randomUUID().toString();
        given().queryParam("tenant", tenant).get("/quota").then().statusCode(200);
        JsonNode limits = executeJsonRPCMethod("limits");
        assertThat(limits).anySatisfy(limit -> {
            assertThat(limit.get("name").asText()).isEqualTo("quota-from-code");
            assertThat(limit.get("method").asText()).isEqualTo("RateLimiter (a limit made in code)");
            assertThat(limit.get("limit").asLong()).isEqualTo(3);
            assertThat(limit.get("window").asText()).isEqualTo("1h");
        });
        JsonNode status = executeJsonRPCMethod("tenantStatus", Map.of("tenant", tenant));
        assertThat(status).anySatisfy(limit -> {
            assertThat(limit.get("policy").asText()).isEqualTo("quota-from-code");
            assertThat(limit.get("remaining").asLong()).isEqualTo(2);
        });
    }

    private void listsEachLimitAsDeclaredAndAsConfigured() throws Exception {
        JsonNode limits = executeJsonRPCMethod("limits");
        assertThat(limits).hasSize(2);
        JsonNode limit = limits.get(0);
        assertThat(limit.get("method").asText()).isEqualTo("DevUiTest$Mail#send()");
        assertThat(limit.get("name").asText()).isEqualTo("Mail.send");
        assertThat(limit.get("policy").asText()).isEqualTo("e-mail");
        assertThat(limit.get("declaredLimit").asLong()).as("the annotation leaves it to the policy").isZero();
        assertThat(limit.get("limit").asLong()).isEqualTo(5);
        assertThat(limit.get("window").asText()).isEqualTo("1h");
        assertThat(limit.get("algorithm").asText()).isEqualTo("fixed-window");
        assertThat(limit.get("scope").asText()).isEqualTo("tenant");
        assertThat(limit.get("cost").asLong()).isEqualTo(1);
        assertThat(limit.get("failureMode").asText()).isEqualTo("fail-closed");
        assertThat(limit.get("maxWait").asText()).as("its calls do not wait").isEmpty();
        assertThat(limit.get("direction").asText()).isEqualTo("incoming");
    }

    private void looksUpATenantAndResetsIt() throws Exception {
        String tenant = UUID.randomUUID().toString();
        for (int i = 0; i < 3; i++) {
            given().header("X-Tenant-Id", tenant).get("/mail").then().statusCode(200);
        }
        given().header("X-Tenant-Id", tenant).queryParam("recipients", 25).get("/mailing").then().statusCode(200);
        JsonNode status = executeJsonRPCMethod("tenantStatus", Map.of("tenant", tenant));
        assertThat(status).hasSize(2);
        assertThat(status.get(0).get("policy").asText()).isEqualTo("e-mail");
        assertThat(status.get(0).get("remaining").asLong()).isEqualTo(2);
        assertThat(status.get(0).get("resetInSeconds").asLong()).isBetween(1L, 3600L);
        assertThat(status.get(0).get("debt").asText()).isEmpty();
        assertThat(status.get(1).get("name").asText()).isEqualTo("mailing-recipients");
        assertThat(status.get(1).get("remaining").asLong()).isZero();
        assertThat(status.get(1).get("debt").asText()).as("25 recipients settled where 1 was reserved, of 10")
                .startsWith("in debt, paid back in ");

        JsonNode afterReset = executeJsonRPCMethod("reset", Map.of("tenant", tenant, "policy", "e-mail"));
        assertThat(afterReset.get(0).get("remaining").asLong()).isEqualTo(5);
        given().header("X-Tenant-Id", tenant).get("/mail").then().statusCode(200)
                .header("RateLimit", matchesPattern("\"Mail.send\";r=4;t=\\d+"));
    }

    private void showsTheBreakerAndTheCounters() throws Exception {
        given().header("X-Tenant-Id", UUID.randomUUID().toString()).get("/mail").then().statusCode(200);
        JsonNode breaker = executeJsonRPCMethod("breaker");
        assertThat(breaker.get("circuit").asText()).isEqualTo("closed");
        assertThat(breaker.get("decisions-sent-to-redis").asLong()).isPositive();
        assertThat(breaker.get("decisions-without-redis").asLong()).isZero();
        assertThat(breaker.get("scripts-preloaded").asInt()).isEqualTo(breaker.get("scripts-used").asInt());
        assertThat(breaker.get("calls-waiting-for-a-slot").asInt()).isZero();
    }
}
