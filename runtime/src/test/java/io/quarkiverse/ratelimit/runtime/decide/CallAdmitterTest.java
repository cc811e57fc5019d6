package io.quarkiverse.ratelimit.runtime.decide;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.admitted.AdmissionsForTests;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.quarkiverse.ratelimit.runtime.resilience.GuardedDecisions;
import io.quarkiverse.ratelimit.runtime.store.InMemoryCountStore;
import io.smallrye.mutiny.Uni;

/**
 * The decision core without Redis: a resolved call decided on counts kept in memory, on a clock the test drives. What
 * each limit's mode does to the call, what the caller is shown, and that a refused call takes nothing.
 */
class CallAdmitterTest {

    private static final long HOUR_MS = 3_600_000;
    private static final LimitDefinition CHECKOUT = LimitDefinition.builder("checkout", 2, HOUR_MS).build();
    private static final LimitDefinition SEARCH = LimitDefinition.builder("search", 1, HOUR_MS).build();
    private static final MethodLimits BOTH = new MethodLimits(List.of(CHECKOUT, SEARCH), ReturnKind.UNI);
    private static final List<String> KEYS = List.of("rl:{acme}:checkout", "rl:{acme}:search");

    private final AtomicLong nowMicros = new AtomicLong(1_700_000_000L * 1_000_000);
    private final InMemoryCountStore counts = new InMemoryCountStore(nowMicros::get);
    private final Map<String, List<RateLimitDecision>> held = new HashMap<>();
    private final AtomicInteger sentToTheCounts = new AtomicInteger();
    private final CallAdmitter admitter = new CallAdmitter(new GuardedDecisions() {
        @Override
        public Uni<List<RateLimitDecision>> acquire(List<String> keys, List<LimitDefinition> limits, String tenant,
                ShadowMask shadow) {
            sentToTheCounts.incrementAndGet();
            return DirectUni.item(counts.decide(keys, limits, shadow).result());
        }

        @Override
        public List<RateLimitDecision> heldRefusal(List<String> keys, List<LimitDefinition> limits, String tenant,
                ShadowMask shadow) {
            return held.get(keys.get(0));
        }
    }, null, null, AdmissionsForTests.givingNothingBack(), null);

    @Test
    void aCallEveryLimitEnforcesIsAdmittedUntilOneRefusesAndTheRefusedCallTakesNothing() {
        ResolvedCall call = ResolvedCall.enforced(null, "acme", BOTH, KEYS);
        assertThat(decide(call).admitted()).isTrue();

        CallDecision refused = decide(call);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.refusal().getMessage()).contains("search");
        assertThat(refused.shown()).extracting(RateLimitDecision::allowed).containsExactly(true, false);

        RateLimitDecision checkoutAlone = decide(ResolvedCall.enforced(null, "acme",
                new MethodLimits(List.of(CHECKOUT), ReturnKind.UNI), KEYS.subList(0, 1))).shown().get(0);
        assertThat(checkoutAlone.remaining()).as("the refused call took nothing of checkout").isZero();
        assertThat(checkoutAlone.allowed()).isTrue();
    }

    @Test
    void aShadowLimitThatRefusesLetsTheCallProceedAndIsShownOnlyWhenConfigured() {
        ResolvedCall searchInShadow = new ResolvedCall(null, "acme", BOTH, BOTH.getLimits(), KEYS,
                ShadowMask.NONE.with(1), new int[] { 0, 1 }, false);
        decide(searchInShadow);

        CallDecision second = decide(searchInShadow);
        assertThat(second.admitted()).isTrue();
        assertThat(second.shown()).extracting(RateLimitDecision::limitName).containsExactly("checkout");
        RateLimitDecision search = second.perLimit(BOTH.getLimits()).get(1);
        assertThat(search.allowed()).as("as the call sees it: admitted, nothing left").isTrue();
        assertThat(search.remaining()).isZero();

        ResolvedCall shownToo = new ResolvedCall(null, "other", BOTH, BOTH.getLimits(),
                List.of("rl:{other}:checkout", "rl:{other}:search"), ShadowMask.NONE.with(1), new int[] { 0, 1 }, true);
        decide(shownToo);
        assertThat(decide(shownToo).shown()).extracting(RateLimitDecision::allowed).containsExactly(true, false);
    }

    @Test
    void aLimitSwitchedOffIsNotDecidedAndShowsItsWholeLimitLeft() {
        ResolvedCall searchOff = new ResolvedCall(null, "acme", BOTH, List.of(CHECKOUT), KEYS.subList(0, 1),
                ShadowMask.NONE, new int[] { 0, -1 }, false);
        for (int call = 0; call < 2; call++) {
            assertThat(decide(searchOff).admitted()).isTrue();
        }
        CallDecision third = decide(searchOff);
        assertThat(third.admitted()).isFalse();
        RateLimitDecision search = third.perLimit(BOTH.getLimits()).get(1);
        assertThat(search.remaining()).isEqualTo(SEARCH.getLimit());
    }

    @Test
    void aCallNoLimitLooksAtIsAdmittedWithoutTheCounts() {
        CallDecision decision = decide(ResolvedCall.UNLIMITED);
        assertThat(decision.admitted()).isTrue();
        assertThat(decision.perLimit(BOTH.getLimits())).extracting(RateLimitDecision::remaining).containsExactly(2L, 1L);
        assertThat(sentToTheCounts).hasValue(0);
        assertThat(admitter.heldRefusal(ResolvedCall.UNLIMITED)).isNull();
    }

    @Test
    void aHeldRefusalAnswersWithoutTheCountsAndNoneHeldIsNull() {
        ResolvedCall call = ResolvedCall.enforced(null, "acme", BOTH, KEYS);
        assertThat(admitter.heldRefusal(call)).isNull();

        held.put(KEYS.get(0), List.of(new RateLimitDecision("checkout", 2, Duration.ofHours(1), false, 0,
                Duration.ofMinutes(30), Duration.ofMinutes(30), false),
                new RateLimitDecision("search", 1, Duration.ofHours(1), true, 1, Duration.ZERO, Duration.ZERO, false)));
        CallDecision refused = admitter.heldRefusal(call);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.refusal().getMessage()).contains("checkout");
        assertThat(sentToTheCounts).hasValue(0);
    }

    @Test
    void aWindowTheDrivenClockPassedAdmitsAgain() {
        ResolvedCall call = ResolvedCall.enforced(null, "acme", BOTH, KEYS);
        decide(call);
        assertThat(decide(call).admitted()).isFalse();

        // the default sliding window counter weighs the previous window in until a whole window has passed after it
        nowMicros.addAndGet(HOUR_MS * 1000);
        assertThat(decide(call).admitted()).isFalse();
        nowMicros.addAndGet(HOUR_MS * 1000);
        assertThat(decide(call).admitted()).isTrue();
    }

    private CallDecision decide(ResolvedCall call) {
        return admitter.decide(call).await().atMost(Duration.ofSeconds(1));
    }
}
