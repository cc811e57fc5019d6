package io.quarkiverse.ratelimit.runtime.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.runtime.clock.DrivenClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.observe.DecidedBy;
import io.quarkiverse.ratelimit.runtime.observe.DecidedCall;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObserver;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObserversForTests;
import io.quarkiverse.ratelimit.runtime.policy.LimitModesForTests;

/**
 * What each limit's failure mode makes of a call Redis could not decide, on this instance's own counts and a driven
 * clock: no Redis, no waiting.
 */
class FailureModesTest {

    private static final Duration RETRY = Duration.ofSeconds(5);

    private final DrivenClock clock = new DrivenClock();
    private final Map<String, String> switches = new HashMap<>();
    private final List<DecidedCall> decided = new ArrayList<>();
    private final List<String> unavailable = new ArrayList<>();
    /** The default is fail-open; two instances share every limit decided locally. */
    private final FailureModes failureModes = new FailureModes(FailureMode.FAIL_OPEN, new LocalFallback(100, () -> 2, clock),
            LimitModesForTests.enforcedWith(switches), DecisionObserversForTests.of(new DecisionObserver() {
                @Override
                public void decided(DecidedCall call) {
                    decided.add(call);
                }

                @Override
                public void unavailable(List<LimitDefinition> limits, String tenant, Object span) {
                    limits.forEach(limit -> unavailable.add(limit.getName() + " of " + tenant));
                }
            }));

    @Test
    void anEnforcedFailClosedLimitFailsTheCallWithTheBreakersRetryTime() {
        LimitDefinition orders = limit("orders", 10, FailureMode.FAIL_CLOSED);
        assertThatThrownBy(() -> decide(List.of(orders), ShadowMask.NONE))
                .isInstanceOfSatisfying(RateLimiterUnavailableException.class, failed -> {
                    assertThat(failed.limitName()).isEqualTo("orders");
                    assertThat(failed.retryAfter()).isEqualTo(RETRY);
                });
        assertThat(unavailable).containsExactly("orders of acme");
        assertThat(decided).isEmpty();
    }

    @Test
    void aFailClosedLimitInShadowModeRefusesWithoutFailingTheCall() {
        LimitDefinition orders = limit("orders", 10, FailureMode.FAIL_CLOSED);
        RateLimitDecision refused = decide(List.of(orders), ShadowMask.NONE.with(0)).get(0);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.degraded()).isTrue();
        assertThat(refused.retryAfter()).isEqualTo(RETRY);
        assertThat(decided.get(0).byLimit()).containsExactly(DecidedBy.FAIL_CLOSED);
    }

    @Test
    void localLimitsAdmitThisInstancesShareAllOrNothingBesideAFailOpenOne() {
        LimitDefinition search = limit("search", 4, FailureMode.LOCAL);
        LimitDefinition export = limit("export", 2, FailureMode.LOCAL);
        LimitDefinition audit = limit("audit", 1, FailureMode.FAIL_OPEN);
        List<LimitDefinition> limits = List.of(search, export, audit);

        assertThat(decide(limits, ShadowMask.NONE)).allMatch(RateLimitDecision::allowed);
        List<RateLimitDecision> second = decide(limits, ShadowMask.NONE);
        assertThat(second).extracting(RateLimitDecision::allowed).as("export's share of 2 on 2 instances is 1")
                .containsExactly(true, false, true);
        assertThat(decided.get(1).by()).isEqualTo(DecidedBy.FALLBACK);
        assertThat(decided.get(1).byLimit()).containsExactly(DecidedBy.FALLBACK, DecidedBy.FALLBACK,
                DecidedBy.FAIL_OPEN);
        assertThat(decide(List.of(search), ShadowMask.NONE).get(0).allowed())
                .as("the refused call took nothing of search's share").isTrue();

        clock.advanceMillis(1000);
        assertThat(decide(limits, ShadowMask.NONE)).as("the next window").allMatch(RateLimitDecision::allowed);
    }

    @Test
    void aLimitWithoutAFailureModeTakesTheDefaultAndARunTimeSwitchOverridesBoth() {
        LimitDefinition reports = limit("reports", 10, FailureMode.DEFAULT);
        assertThat(decide(List.of(reports), ShadowMask.NONE).get(0).allowed()).isTrue();
        assertThat(decided.get(0).by()).isEqualTo(DecidedBy.FAIL_OPEN);

        switches.put("reports failure-mode", "fail-closed");
        assertThatThrownBy(() -> decide(List.of(reports), ShadowMask.NONE))
                .isInstanceOf(RateLimiterUnavailableException.class);
        assertThat(failureModes.degradedCalls()).isEqualTo(2);
    }

    private List<RateLimitDecision> decide(List<LimitDefinition> limits, ShadowMask shadow) {
        List<String> keys = limits.stream().map(limit -> "rl:{acme}:" + limit.getName()).toList();
        return failureModes.decide(keys, limits, new IllegalStateException("Redis is away"), "acme", null, shadow,
                RETRY);
    }

    private static LimitDefinition limit(String name, long limit, FailureMode failureMode) {
        return LimitDefinition.builder(name, limit, 1000).algorithm(Algorithm.FIXED_WINDOW).failureMode(failureMode)
                .build();
    }
}
