package org.acme.bench;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/** Keeps a number of decisions in flight for a while and measures how many complete, and how fast. */
final class Load {

    private static final int MAX_SAMPLES = 8_000_000;

    private final Function<String, CompletionStage<?>> decide;
    private final int keys;
    private final long[] latencies = new long[MAX_SAMPLES];
    private final AtomicInteger samples = new AtomicInteger();
    private final LongAdder errors = new LongAdder();
    /** Every decision, warm-up included (what Redis counted its CPU for). */
    private final LongAdder all = new LongAdder();
    private volatile boolean measuring;
    private volatile long endNanos;

    Load(Function<String, CompletionStage<?>> decide, int keys) {
        this.decide = decide;
        this.keys = keys;
    }

    /** Asynchronous: {@code inFlight} chains, each sending the next decision when the last one completes. */
    String runAsync(int inFlight, int warmupSeconds, int seconds) throws InterruptedException {
        endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds + seconds);
        CountDownLatch done = new CountDownLatch(inFlight);
        for (int i = 0; i < inFlight; i++) {
            next(done);
        }
        return measure(warmupSeconds, seconds, done);
    }

    /** Blocking: {@code threads} threads, each waiting for its decision. */
    String runBlocking(int threads, int warmupSeconds, int seconds) throws InterruptedException {
        endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds + seconds);
        CountDownLatch done = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < endNanos) {
                    long start = System.nanoTime();
                    try {
                        decide.apply(tenant()).toCompletableFuture().join();
                    } catch (RuntimeException e) {
                        errors.increment();
                    }
                    all.increment();
                    record(System.nanoTime() - start);
                }
                done.countDown();
            });
            thread.start();
        }
        return measure(warmupSeconds, seconds, done);
    }

    /**
     * The next decision of one caller, once the last one completed. A decision answered at once (a refusal from the
     * refusal cache, an admission from a leased slice) is followed in this loop, not from its callback: a caller's
     * chain of such decisions would otherwise nest one stack frame per decision until the stack overflows.
     */
    private void next(CountDownLatch done) {
        while (System.nanoTime() < endNanos) {
            long start = System.nanoTime();
            CompletableFuture<?> decision = decide.apply(tenant()).toCompletableFuture();
            if (!decision.isDone()) {
                decision.whenComplete((result, failure) -> {
                    completed(start, failure != null);
                    next(done);
                });
                return;
            }
            completed(start, decision.isCompletedExceptionally());
        }
        done.countDown();
    }

    private void completed(long start, boolean failed) {
        if (failed) {
            errors.increment();
        }
        all.increment();
        record(System.nanoTime() - start);
    }

    private String measure(int warmupSeconds, int seconds, CountDownLatch done) throws InterruptedException {
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmupSeconds));
        measuring = true;
        long started = System.nanoTime();
        done.await();
        long elapsed = System.nanoTime() - started;
        measuring = false;
        int measured = samples.get();
        // the latencies of the first MAX_SAMPLES decisions measured; the rate counts every one
        long[] sorted = Arrays.copyOf(latencies, Math.min(measured, MAX_SAMPLES));
        Arrays.sort(sorted);
        return String.format("decisions/s=%.0f p50_ms=%.2f p99_ms=%.2f errors=%d all=%d",
                measured * 1e9 / elapsed, percentile(sorted, 0.50), percentile(sorted, 0.99), errors.sum(), all.sum());
    }

    private void record(long nanos) {
        if (measuring) {
            int at = samples.getAndIncrement();
            if (at < MAX_SAMPLES) {
                latencies[at] = nanos;
            }
        }
    }

    private String tenant() {
        return keys == 1 ? "hot" : "t" + ThreadLocalRandom.current().nextInt(keys);
    }

    private static double percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, p * sorted.length)] / 1e6;
    }
}
