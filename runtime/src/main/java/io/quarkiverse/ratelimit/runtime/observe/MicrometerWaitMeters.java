package io.quarkiverse.ratelimit.runtime.observe;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.DoubleSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.ratelimit.RateLimitDecision;

/**
 * The meters of calls that wait for a slot or go to another service, per limit: how long admitted calls waited
 * ({@code rate_limit.wait}, its count the calls admitted), how many were refused because their slot lay further ahead
 * ({@code rate_limit.wait.refused}), how often an upstream's 429 paused the limit ({@code rate_limit.upstream.pauses}) and what
 * an adaptive limit learned
 * ({@code rate_limit.adaptive.limit}).
 * Part of the public metric contract (the observability page lists them).
 */
final class MicrometerWaitMeters {

    static final String WAIT = "rate_limit.wait";
    static final String WAIT_REFUSED = "rate_limit.wait.refused";
    static final String UPSTREAM_PAUSES = "rate_limit.upstream.pauses";
    static final String ADAPTIVE_LIMIT = "rate_limit.adaptive.limit";

    /** The wait histogram's buckets: waits are bounded by maxWait, usually a few seconds at most. */
    private static final Duration[] WAIT_BUCKETS = {
            Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(30) };

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer> waits = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> refusals = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> pauses = new ConcurrentHashMap<>();

    MicrometerWaitMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** One decision per limit of a call that may wait, as Redis took it. */
    void decided(List<RateLimitDecision> decisions) {
        boolean admitted = true;
        for (int i = 0; i < decisions.size(); i++) {
            admitted &= decisions.get(i).allowed();
        }
        for (int i = 0; i < decisions.size(); i++) {
            RateLimitDecision decision = decisions.get(i);
            if (admitted) {
                Timer wait = waits.get(decision.limitName()); // found without a lambda, created once
                if (wait == null) {
                    wait = waits.computeIfAbsent(decision.limitName(), name -> Timer.builder(WAIT)
                            .description("How long calls that may wait (maxWait) waited for their slot; 0 for a call"
                                    + " that went at once")
                            .tag("limit", name)
                            .serviceLevelObjectives(WAIT_BUCKETS)
                            .register(registry));
                }
                wait.record(decision.waitTime());
            } else if (!decision.allowed()) {
                Counter refused = refusals.get(decision.limitName());
                if (refused == null) {
                    refused = refusals.computeIfAbsent(decision.limitName(), name -> Counter.builder(WAIT_REFUSED)
                            .description("Calls that may wait (maxWait) refused because their slot lay further ahead")
                            .tag("limit", name)
                            .register(registry));
                }
                refused.increment();
            }
        }
    }

    /** A limit paused because an outgoing call's upstream answered 429 or 503 with a retry time. */
    void paused(String limit) {
        pauses.computeIfAbsent(limit, name -> Counter.builder(UPSTREAM_PAUSES)
                .description("Times a limit of outgoing calls was paused fleet-wide because the service answered 429 or"
                        + " 503 with a retry time")
                .tag("limit", name)
                .register(registry)).increment();
    }

    /** An adaptive limit's learned value, read when the registry is scraped. */
    void adaptive(String limit, DoubleSupplier learned) {
        Gauge.builder(ADAPTIVE_LIMIT, learned, DoubleSupplier::getAsDouble).strongReference(true)
                .description("The limit an adaptive limit learned from its service's 429 answers: the lowest of its"
                        + " keys on this instance, the configured limit while none learned less")
                .tag("limit", limit)
                .register(registry);
    }
}
