package io.quarkiverse.ratelimit.deployment.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.ReactiveRateLimitAdmin;
import io.quarkiverse.ratelimit.deployment.TestRedis;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A limit made in code ({@code RateLimit.of}, the chat budget of the reserve-and-settle page) is named by operators
 * as an annotation's, as soon as a call used it: its status (a debt included) and reset, blocking and reactive; and
 * one the fleet used, found in Redis by an instance none of whose calls used it.
 */
class CodeLimitsAdminTest {

    static final TestRedis REDIS = TestRedis.named("code-limits-admin");

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedis.class))
            .overrideConfigKey("quarkus.redis.hosts", REDIS.uri());

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    static final RateLimit BUDGET = RateLimit.of("budget", 1000, Duration.ofHours(1));

    @Inject
    RateLimiter limiter;

    @Inject
    RateLimitAdmin admin;

    @Inject
    ReactiveRateLimitAdmin reactiveAdmin;

    @Test
    void anOperatorSeesTheDebtOfALimitMadeInCodeAndResetsIt() {
        String tenant = "chat-" + UUID.randomUUID();
        limiter.reserveAndAwait(BUDGET, tenant, 100).settleAndAwait(1200);

        List<RateLimitDecision> status = admin.status(tenant, "budget");
        assertThat(status).singleElement().satisfies(decision -> {
            assertThat(decision.limitName()).isEqualTo("budget");
            assertThat(decision.limit()).isEqualTo(1000);
            assertThat(decision.remaining()).isZero();
            assertThat(decision.allowed()).as("in debt").isFalse();
        });
        assertThat(reactiveAdmin.status(RateLimitSubject.tenant(tenant), "budget").await().atMost(Duration.ofSeconds(10)))
                .singleElement().satisfies(decision -> {
                    assertThat(decision.remaining()).isZero();
                    assertThat(decision.allowed()).isFalse();
                });

        assertThat(admin.reset(tenant, "budget")).isEqualTo(1);
        assertThat(limiter.statusAndAwait(BUDGET, tenant).remaining()).isEqualTo(1000);
    }

    @Test
    void aLimitAnotherInstanceUsedIsFoundInRedis() {
        // what another instance's first call of a limit made in code records
        REDIS.command("HSET", "rate-limit:{~code-limits}", "labels-dhl", "GCRA 20 60000 5 NONE - 1");
        String tenant = "acme-" + UUID.randomUUID();
        assertThat(admin.status(tenant, "labels-dhl")).singleElement().satisfies(decision -> {
            assertThat(decision.limit()).isEqualTo(20);
            assertThat(decision.remaining()).as("the burst").isEqualTo(5);
        });
    }

    @Test
    void anUnknownNameListsTheLimitsMadeInCodeAndAnotherSubjectIsRefused() {
        limiter.tryAcquireAndAwait(BUDGET, "somebody");
        assertThatThrownBy(() -> admin.status("acme", "budgett")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("No limit uses the policy or name 'budgett'")
                .hasMessageContaining("limits made in code: [budget");
        assertThatThrownBy(() -> admin.status(RateLimitSubject.everyone(), "budget"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'budget' is a limit made in code, which counts per the tenant its calls name");
    }
}
