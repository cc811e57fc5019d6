package org.acme.bench;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;

/**
 * {@code GET /bench/window?limit=20000&windowSeconds=10&inFlight=64&seconds=20&key=k}: one key of a fixed-window limit
 * driven past its limit with {@code RateLimiter.tryAcquire}, {@code inFlight} at a time, for {@code seconds} (or the
 * whole seconds left until {@code until}, epoch milliseconds; no warm-up: every decision counts): the Load report, how
 * many calls Redis and the slices admitted, in which windows, and how many the failure mode admitted while Redis did
 * not answer in time (those count in no window). Instances driven at once on the
 * same key share the limit: what they admitted together, against the limit times the windows, is the capacity a fleet
 * used, and what it left unused (bench/region.sh).
 */
@Path("/bench")
public class WindowBenchmark {

    @Inject
    RateLimiter limiter;

    @GET
    @Path("window")
    public String window(@QueryParam("limit") @DefaultValue("20000") long limit,
            @QueryParam("windowSeconds") @DefaultValue("10") int windowSeconds,
            @QueryParam("inFlight") @DefaultValue("64") int inFlight,
            @QueryParam("seconds") @DefaultValue("20") int seconds,
            @QueryParam("key") @DefaultValue("region") String key,
            @QueryParam("until") @DefaultValue("0") long untilEpochMillis) throws InterruptedException {
        if (untilEpochMillis > 0) {
            // instances started at once run until the same moment, however late one of them began
            seconds = (int) ((untilEpochMillis - System.currentTimeMillis()) / 1000);
        }
        RateLimit rateLimit = RateLimit.of("bench-window", limit, Duration.ofSeconds(windowSeconds))
                .algorithm(Algorithm.FIXED_WINDOW);
        LongAdder admitted = new LongAdder();
        LongAdder degraded = new LongAdder();
        long windowMillis = windowSeconds * 1000L;
        // each admission by the window that held it: the end the decision gives (its reset), to the nearest boundary
        Map<Long, LongAdder> byWindow = new ConcurrentSkipListMap<>();
        String report = new Load(ignored -> {
            CompletableFuture<RateLimitDecision> decided = new CompletableFuture<>();
            limiter.tryAcquire(rateLimit, key).subscribe().with(decision -> {
                if (decision.allowed() && decision.degraded()) {
                    degraded.increment(); // Redis did not answer in time: the failure mode admitted it
                } else if (decision.allowed()) {
                    admitted.increment();
                    long end = System.currentTimeMillis() + decision.resetAfter().toMillis();
                    long window = Math.round((double) end / windowMillis) - 1;
                    byWindow.computeIfAbsent(window, w -> new LongAdder()).increment();
                }
                decided.complete(decision);
            }, decided::completeExceptionally);
            return decided;
        }, 1).runAsync(inFlight, 0, seconds);
        StringBuilder windows = new StringBuilder();
        byWindow.forEach((window, count) -> windows.append(windows.isEmpty() ? "" : ",").append(window % 1000)
                .append(':').append(count.sum()));
        return report + " admitted=" + admitted.sum() + " by_window=" + windows + " admitted_by_failure_mode="
                + degraded.sum();
    }
}
