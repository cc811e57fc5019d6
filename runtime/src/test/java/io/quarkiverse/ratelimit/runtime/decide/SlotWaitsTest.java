package io.quarkiverse.ratelimit.runtime.decide;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.admitted.Admission;
import io.quarkiverse.ratelimit.runtime.clock.DrivenClock;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.outgoing.UpstreamPauses;
import io.quarkiverse.ratelimit.runtime.outgoing.UpstreamPausesForTests;
import io.quarkiverse.ratelimit.runtime.reactive.DirectUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * A call admitted for a later slot, on a clock the test drives: it goes at its slot and not before, a timer that fires
 * late takes the next free slot instead, a pause wakes it at once, and a wait given up holds nothing. Milliseconds of
 * real time, whatever the waits.
 */
class SlotWaitsTest {

    private static final List<String> KEYS = List.of("rl:{carrier}:labels");
    private static final LimitDefinition LABELS = LimitDefinition.builder("labels", 50, 1000)
            .algorithm(Algorithm.GCRA).maxWait(500).build();

    private final DrivenClock clock = new DrivenClock();
    private final UpstreamPauses pauses = UpstreamPausesForTests.on(clock);
    private final SlotWaits waits = new SlotWaits(clock, pauses, Duration.ofMillis(50));
    private final List<Long> requeuedWithin = new ArrayList<>();

    @Test
    void aCallGoesAtItsSlotAndNotBefore() {
        Answers answers = wait(admittedFor(100, LABELS), LABELS);
        assertThat(waits.waiting()).isEqualTo(1);

        clock.advanceMillis(99);
        assertThat(answers.received).isEmpty();
        clock.advanceMillis(1);
        assertThat(answers.received).singleElement().satisfies(decision -> assertThat(decision.admitted()).isTrue());
        assertThat(waits.waiting()).isZero();
        assertThat(requeuedWithin).isEmpty();
    }

    @Test
    void aTimerThatFiresLateWithinTheToleranceStillGoes() {
        Answers answers = wait(admittedFor(100, LABELS), LABELS);

        clock.advanceMillis(99);
        clock.stallMillis(31); // the timer fires 30 ms after the slot, within the 50 ms tolerance
        clock.advanceMillis(0);

        assertThat(requeuedWithin).isEmpty();
        assertThat(answers.received).singleElement().satisfies(decision -> assertThat(decision.admitted()).isTrue());
    }

    @Test
    void aTimerThatFiresLateTakesTheNextFreeSlotWithinWhatIsLeftOfItsWait() {
        Answers answers = wait(admittedFor(100, LABELS), LABELS);

        clock.stallMillis(200); // the event loop stalled: the slot passed 100 ms ago, beyond the 50 ms tolerance
        clock.advanceMillis(0);

        assertThat(requeuedWithin).containsExactly(300L); // 500 ms of wait, 200 gone
        assertThat(answers.received).singleElement().satisfies(decision -> assertThat(decision.waitMillis()).isZero());
    }

    @Test
    void aPauseWakesAWaitingCallAtOnceToBeDecidedAgain() {
        Answers answers = wait(admittedFor(100, LABELS), LABELS);

        UpstreamPausesForTests.pause(pauses, KEYS, 1000);

        assertThat(requeuedWithin).containsExactly(500L);
        assertThat(clock.pendingTimers()).isZero();
        assertThat(answers.received).hasSize(1);
    }

    @Test
    void aSlotRedisGaveBeforeThePauseNeverGoesInsideItHoweverCloseToItsEnd() {
        Answers answers = wait(admittedFor(990, LABELS), LABELS);

        UpstreamPausesForTests.pause(pauses, KEYS, 1000); // ends 10 ms after the slot, within the 50 ms tolerance

        assertThat(requeuedWithin).containsExactly(500L);
        assertThat(clock.pendingTimers()).isZero();
        assertThat(answers.received).hasSize(1);
    }

    @Test
    void aSlotRedisGaveOnceItHeldThePauseGoesThoughThePauseEndsLaterHere() {
        UpstreamPausesForTests.pause(pauses, KEYS, 1000);
        clock.advanceMillis(1);
        // this instance heard of the pause later than Redis started it: Redis's first slot after it comes earlier here
        Answers answers = wait(admittedFor(900, LABELS), LABELS);

        clock.advanceMillis(900);

        assertThat(requeuedWithin).isEmpty();
        assertThat(answers.received).singleElement().satisfies(decision -> assertThat(decision.admitted()).isTrue());
    }

    @Test
    void aPauseRedisCouldNotRecordHoldsEverySlotOfThisInstanceUntilItsEnd() {
        LimitDefinition longWait = LABELS.toBuilder().maxWait(2000).build();
        UpstreamPausesForTests.pauseHereOnly(pauses, KEYS, 1000);
        clock.advanceMillis(1);
        Answers answers = wait(admittedFor(998, longWait), longWait); // Redis, without the pause, gave a slot inside it

        clock.advanceMillis(997);
        assertThat(answers.received).isEmpty();
        clock.advanceMillis(1);

        assertThat(requeuedWithin).containsExactly(1002L); // at its slot, 1 ms before the pause's end: decided again
        assertThat(answers.received).hasSize(1);
    }

    @Test
    void aPauseWithNothingLeftOfTheWaitRefusesTheCallWithThePauseAsItsRetryTime() {
        LimitDefinition shortWait = LABELS.toBuilder().maxWait(100).build();
        Answers answers = wait(admittedFor(100, shortWait), shortWait);

        clock.stallMillis(100); // its whole wait gone, its timer not run yet
        UpstreamPausesForTests.pause(pauses, KEYS, 1000);

        assertThat(requeuedWithin).isEmpty();
        CallDecision refused = answers.received.get(0);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.shown().get(0).retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aWaitGivenUpHoldsNoTimerAndAnswersNothing() {
        Answers answers = wait(admittedFor(100, LABELS), LABELS);

        answers.subscription.cancel();

        assertThat(clock.pendingTimers()).isZero();
        assertThat(waits.waiting()).isZero();
        clock.advanceMillis(1000);
        assertThat(answers.received).isEmpty();
    }

    private CallDecision admittedFor(long waitMillis, LimitDefinition limit) {
        RateLimitDecision decision = new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), true, 0,
                Duration.ofMillis(waitMillis), Duration.ZERO, false, Duration.ofMillis(waitMillis));
        return CallDecision.admitted(Admission.NONE, List.of(decision), clock);
    }

    /** Waits for the slot of {@code decided}; decided again, the call goes at once. */
    private Answers wait(CallDecision decided, LimitDefinition limit) {
        Answers answers = new Answers();
        ((DirectUni<CallDecision>) waits.waited(() -> DirectUni.item(decided), KEYS, List.of(limit), left -> {
            requeuedWithin.add(left);
            return DirectUni.item(admittedFor(0, limit));
        })).subscribe(answers);
        return answers;
    }

    private static final class Answers implements UniSubscriber<CallDecision> {

        final List<CallDecision> received = new ArrayList<>();
        UniSubscription subscription;

        @Override
        public void onSubscribe(UniSubscription subscription) {
            this.subscription = subscription;
        }

        @Override
        public void onItem(CallDecision item) {
            received.add(item);
        }

        @Override
        public void onFailure(Throwable failure) {
            throw new AssertionError(failure);
        }
    }
}
