package io.quarkiverse.ratelimit.deployment.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.Charge;
import io.quarkiverse.ratelimit.ConcurrencyLimit;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.Reservation;
import io.quarkiverse.ratelimit.TenantBlockedException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * The RateLimiter crosses the gate the annotations cross: blocked tenants (configured or at run time) fail every method
 * that takes units or a slot with {@link TenantBlockedException}, before Redis; exempt tenants are admitted with their
 * whole limit left; the kill switch applies to its limits too.
 */
class ProgrammaticTenantGateTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.rate-limit.blocked-tenants", "abuser-corp")
            .overrideConfigKey("quarkus.rate-limit.exempt-tenants", "monitoring");

    static final RateLimit EMAILS = RateLimit.of("gate-emails", 1, Duration.ofHours(1));
    static final RateLimit WAITED = RateLimit.of("gate-waited", 1, Duration.ofHours(1)).algorithm(Algorithm.GCRA)
            .maxWait(Duration.ofMillis(100));
    static final ConcurrencyLimit SLOTS = ConcurrencyLimit.of("gate-slots", 1);

    @Inject
    RateLimiter limiter;

    @Inject
    RateLimitAdmin admin;

    @Test
    void aConfiguredBlockedTenantFailsEveryMethodThatTakesUnitsOrASlot() {
        assertBlocked("abuser-corp");
    }

    @Test
    void aTenantBlockedAtRunTimeFailsEveryMethodUntilUnblocked() {
        String tenant = "gate-" + UUID.randomUUID();
        admin.block(tenant);
        try {
            assertBlocked(tenant);
        } finally {
            admin.unblock(tenant);
        }
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant).allowed()).isTrue();
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant).allowed()).as("past the limit").isFalse();
    }

    @Test
    void theGateIsCrossedWhenTheUniIsSubscribedNotWhenItIsBuilt() {
        String tenant = "gate-" + UUID.randomUUID();
        Uni<RateLimitDecision> built = limiter.tryAcquire(EMAILS, tenant);
        admin.block(tenant);
        try {
            assertThatThrownBy(() -> built.await().indefinitely()).isInstanceOf(TenantBlockedException.class);
        } finally {
            admin.unblock(tenant);
        }
    }

    @Test
    void anExemptTenantIsAdmittedWithItsWholeLimitLeft() {
        for (int call = 0; call < 3; call++) {
            RateLimitDecision decision = limiter.tryAcquireAndAwait(EMAILS, "monitoring");
            assertThat(decision.allowed()).isTrue();
            assertThat(decision.remaining()).isEqualTo(1);
            assertThat(limiter.tryAcquireAll(List.of(WAITED, EMAILS), "monitoring").await().indefinitely())
                    .hasSize(2).allMatch(RateLimitDecision::allowed);
        }
        assertThat(limiter.acquireAndAwait(WAITED, "monitoring").allowed()).isTrue();
        limiter.acquireSlot(SLOTS, "monitoring").await().indefinitely();
        limiter.acquireSlot(SLOTS, "monitoring").await().indefinitely(); // no slot held: nothing to run out of
        Reservation reserved = limiter.reserveAndAwait(EMAILS, "monitoring", 1);
        assertThat(reserved.admitted()).isTrue();
        assertThat(reserved.settleAndAwait(5).get(0).remaining()).as("nothing reserved, nothing settled").isEqualTo(1);
    }

    @Test
    void theKillSwitchTurnsProgrammaticLimitsOffToo() {
        String tenant = "gate-" + UUID.randomUUID();
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant).allowed()).isTrue();
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant).allowed()).isFalse();
        admin.setMode(null, Mode.OFF);
        try {
            List<RateLimitDecision> decisions = limiter.tryAcquireAll(List.of(EMAILS, WAITED), tenant).await()
                    .indefinitely();
            assertThat(decisions).hasSize(2).allMatch(RateLimitDecision::allowed);
            admin.setMode(null, Mode.SHADOW);
            RateLimitDecision shadowed = limiter.tryAcquireAndAwait(EMAILS, tenant);
            assertThat(shadowed.allowed()).as("a shadow refusal lets the call go on").isTrue();
            assertThat(shadowed.remaining()).isZero();
            assertThat(limiter.reserveAndAwait(EMAILS, tenant, 1).admitted()).as("a reservation in shadow mode too")
                    .isTrue();
        } finally {
            admin.clearSwitches(null);
        }
        assertThat(limiter.tryAcquireAndAwait(EMAILS, tenant).allowed()).isFalse();
    }

    private void assertBlocked(String tenant) {
        List<Uni<?>> calls = List.of(limiter.tryAcquire(EMAILS, tenant), limiter.tryAcquire(EMAILS, tenant, 1),
                limiter.tryAcquireAll(List.of(EMAILS), tenant), limiter.acquire(WAITED, tenant),
                limiter.acquireAll(List.of(WAITED), tenant), limiter.acquireSlot(SLOTS, tenant),
                limiter.reserve(EMAILS, tenant, 1), limiter.reserve(List.of(Charge.estimated(EMAILS, 1)), tenant));
        for (Uni<?> call : calls) {
            assertThatThrownBy(() -> call.await().indefinitely()).isInstanceOf(TenantBlockedException.class);
        }
        assertThatThrownBy(() -> limiter.tryAcquireAndAwait(EMAILS, tenant)).isInstanceOf(TenantBlockedException.class);
        assertThatThrownBy(() -> limiter.acquireAndAwait(WAITED, tenant)).isInstanceOf(TenantBlockedException.class);
        assertThatThrownBy(() -> limiter.reserveAndAwait(EMAILS, tenant, 1)).isInstanceOf(TenantBlockedException.class);
    }
}
