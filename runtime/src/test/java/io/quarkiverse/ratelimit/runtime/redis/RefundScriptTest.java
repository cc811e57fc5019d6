package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;

/** refund.lua gives back what a call consumed, atomically, and never beyond zero or the capacity. */
class RefundScriptTest {

    @RegisterExtension
    static final ScriptHarnesses harnesses = new ScriptHarnesses();

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aRefundGivesBackExactlyWhatWasConsumed(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        long now = WINDOW_START_US + 100_000;
        assertThat(script.admitUntilRefused("refund", 5, now)).isEqualTo(5);
        script.refund("refund", 5, 2, now);
        assertThat(script.admitUntilRefused("refund", 5, now)).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void refundingMoreThanWasConsumedNeverRaisesTheLimit(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        long now = WINDOW_START_US + 100_000;
        script.call("over", 5, 1, now);
        script.refund("over", 5, 5, now);
        script.refund("over", 5, 5, now);
        assertThat(script.admitUntilRefused("over", 5, now)).isEqualTo(5);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void concurrentAcquisitionsAndRefundsKeepTheLimitExact(Algorithm algorithm) throws Exception {
        ScriptHarness script = harnesses.of(algorithm);
        long now = WINDOW_START_US + 100_000;
        Limit limit = new Limit("{exact}", algorithm, 20, 1);
        // half the workers give back every unit they get (a failed call), the others keep theirs
        int held = runWorkers(script, limit, now, (id, i) -> id % 2 == 0 ? 1 : 0);
        assertThat(held).as("units kept by calls that were not refunded").isEqualTo(20);
        assertThat(script.admitUntilRefused("{exact}", 20, now)).as("nothing left beyond the limit").isZero();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void strayRefundsAmidAcquisitionsNeverLiftALimitAboveItsCapacity(Algorithm algorithm) throws Exception {
        ScriptHarness script = harnesses.of(algorithm);
        long now = WINDOW_START_US + 100_000;
        Limit limit = new Limit("{stray}", algorithm, 20, 1);
        // every worker refunds three units per call, far more than it ever consumed
        runWorkers(script, limit, now, (id, i) -> 3);
        assertThat(script.admitUntilRefused("{stray}", 20, now)).isLessThanOrEqualTo(20);
    }

    interface RefundPlan {
        int refundsAfter(int worker, int iteration);
    }

    /** 8 connections, 150 calls each, refunding as planned after each admitted call; the units kept. */
    private static int runWorkers(ScriptHarness script, Limit limit, long now, RefundPlan plan) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> workers = new ArrayList<>();
            for (int worker = 0; worker < 8; worker++) {
                int id = worker;
                workers.add(threads.submit(() -> {
                    int kept = 0;
                    try (RespConnection redis = script.server().connect()) {
                        for (int i = 0; i < 150; i++) {
                            @SuppressWarnings("unchecked")
                            List<Long> reply = (List<Long>) redis.command(
                                    ScriptHarness.command(script.script(), now, limit));
                            if (reply.get(0) != 1) {
                                continue;
                            }
                            int refunds = plan.refundsAfter(id, i);
                            for (int r = 0; r < refunds; r++) {
                                redis.command(ScriptHarness.command(script.refundScript(), now, limit));
                            }
                            kept += refunds == 0 ? 1 : 0;
                        }
                    }
                    return kept;
                }));
            }
            int kept = 0;
            for (Future<Integer> worker : workers) {
                kept += worker.get();
            }
            return kept;
        } finally {
            threads.shutdownNow();
        }
    }
}
