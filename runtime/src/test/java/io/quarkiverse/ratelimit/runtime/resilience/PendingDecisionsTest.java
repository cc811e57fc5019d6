package io.quarkiverse.ratelimit.runtime.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.runtime.resilience.PendingDecisions.Pending;

class PendingDecisionsTest {

    private static final long TIMEOUT = millis(1000);
    private static final long BUSY_TIMEOUT = millis(10_000);

    private final AtomicLong now = new AtomicLong(millis(1_000_000));
    private final AtomicLong lastReply = new AtomicLong(now.get());
    private final AtomicLong silences = new AtomicLong();
    private final PendingDecisions pending = new PendingDecisions(TIMEOUT, BUSY_TIMEOUT, now::get, lastReply::get,
            silences::incrementAndGet);
    private final List<Throwable> givenUp = new ArrayList<>();

    @Test
    void aCallStartedJustBeforeRedisFellSilentWaitsTheTimeoutAfterTheSilenceNotTwice() {
        start();
        advance(5);
        answered(); // Redis answers another call, then falls silent
        long silentSince = now.get();

        sweepEvery10MsUntil(() -> !givenUp.isEmpty());

        assertThat(now.get() - silentSince).isLessThanOrEqualTo(TIMEOUT + millis(10));
        assertThat(givenUp).hasSize(1);
        assertThat(givenUp.get(0)).isInstanceOf(TimeoutException.class).hasMessage("Redis answered nothing for 1000 ms");
    }

    @Test
    void callsSentAfterRedisFellSilentFailOverWithTheOlderOnesAtTheTimeoutAfterTheSilence() {
        start();
        answered(); // the last reply
        long silentSince = now.get();
        advance(300);
        start();
        advance(600);
        start(); // sent 900 ms into the silence

        sweepEvery10MsUntil(() -> !givenUp.isEmpty());

        assertThat(now.get() - silentSince).isLessThanOrEqualTo(TIMEOUT + millis(10));
        assertThat(givenUp).as("all three, the last after 100 ms of its own").hasSize(3);
        assertThat(silences).as("the connections are suspected once, not per call").hasValue(1);
    }

    @Test
    void aQuietRedisOwesNothingUntilACallIsSent() {
        answered();
        advance(60_000); // no traffic for a minute
        start();
        advance(990);
        pending.sweep();
        assertThat(givenUp).as("a call's own wait counts, not the quiet before it").isEmpty();

        advance(10);
        pending.sweep();
        assertThat(givenUp).hasSize(1);
    }

    @Test
    void aBusyInstanceWaitsWhileRedisAnswersUpToTheBusyTimeout() {
        Pending call = start();
        for (int i = 0; i < 99; i++) {
            advance(100);
            answered();
            pending.sweep();
        }
        assertThat(givenUp).isEmpty();
        assertThat(silences).as("Redis answers: nothing to suspect").hasValue(0);
        assertThat(call.get()).isFalse();

        advance(100);
        answered();
        pending.sweep();
        assertThat(givenUp).hasSize(1);
        assertThat(givenUp.get(0)).hasMessage("Redis did not decide within 10000 ms while busy");
    }

    @Test
    void anAnsweredCallIsNeverGivenUp() {
        Pending call = start();
        assertThat(call.settle()).isTrue();
        advance(5000);
        pending.sweep();

        assertThat(givenUp).isEmpty();
        assertThat(pending.size()).isZero();
    }

    @Test
    void aCallLeftUnansweredWhileRedisAnswersOthersDoesNotKeepTheAnsweredOnesBehindIt() {
        Pending stuck = start();
        for (int i = 0; i < 10_000; i++) {
            assertThat(start().settle()).isTrue(); // answered
        }
        answered();
        pending.sweep();

        assertThat(givenUp).as("within the busy timeout").isEmpty();
        assertThat(stuck.get()).isFalse();
        assertThat(pending.size()).isEqualTo(1);
        assertThat(pending.held()).as("the answered calls are dropped, not kept behind the unanswered one").isEqualTo(1);

        advance(10_000);
        answered();
        pending.sweep();
        assertThat(givenUp).hasSize(1);
        assertThat(pending.held()).isZero();
    }

    @Test
    void aCallGivenUpCannotBeSettledByALateReply() {
        Pending call = start();
        advance(1000);
        pending.sweep();

        assertThat(givenUp).hasSize(1);
        assertThat(call.settle()).isFalse();
    }

    @Test
    void decisionsStartedOnManyThreadsWhileTheSweepRunsAreEachSettledOnce() throws Exception {
        int threads = 8;
        int perThread = 20_000;
        LongAdder answered = new LongAdder();
        LongAdder gaveUp = new LongAdder();
        // Redis keeps answering (no silence) while the clock runs fast: the calls left unanswered (every other one) go
        // by the busy timeout, during the run and in the last sweep, and so may a few answered ones, when the clock ran
        // past their busy timeout before their reply: each either way, never both, never neither
        PendingDecisions decisions = new PendingDecisions(TIMEOUT, BUSY_TIMEOUT, now::get, now::get,
                silences::incrementAndGet);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sweeper = new Thread(() -> {
            while (running.get()) {
                advance(100);
                decisions.sweep();
            }
        });
        sweeper.start();
        List<Future<?>> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            senders.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    Pending call = decisions.start((decision, failure) -> gaveUp.increment());
                    if (i % 2 == 0 && call.settle()) {
                        answered.increment();
                    }
                }
            }));
        }
        for (Future<?> sender : senders) {
            sender.get(30, TimeUnit.SECONDS);
        }
        running.set(false);
        sweeper.join();
        advance(BUSY_TIMEOUT / 1_000_000 + 1);
        decisions.sweep();
        pool.shutdown();

        assertThat(answered.sum() + gaveUp.sum()).as("every call settled once, by its reply or by the sweep")
                .isEqualTo((long) threads * perThread);
        assertThat(gaveUp.sum()).isGreaterThanOrEqualTo((long) threads * perThread / 2);
        assertThat(decisions.size()).isZero();
        assertThat(silences).hasValue(0);
    }

    @Test
    void theSweepRunsAtAHundredthOfTheTimeoutBetween5And20Ms() {
        assertThat(PendingDecisions.sweepIntervalMillis(1000)).isEqualTo(10);
        assertThat(PendingDecisions.sweepIntervalMillis(100)).isEqualTo(5);
        assertThat(PendingDecisions.sweepIntervalMillis(60_000)).isEqualTo(20);
    }

    private Pending start() {
        return pending.start((decision, failure) -> givenUp.add(failure));
    }

    private void sweepEvery10MsUntil(java.util.function.BooleanSupplier done) {
        for (int i = 0; i < 1000 && !done.getAsBoolean(); i++) {
            advance(10);
            pending.sweep();
        }
    }

    private void answered() {
        lastReply.set(now.get());
    }

    private void advance(long millis) {
        now.addAndGet(millis(millis));
    }

    private static long millis(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }
}
