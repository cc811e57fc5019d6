package io.quarkiverse.ratelimit.runtime.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/** The counters of one limit (and tenant, with the tenant tag), each registered on first use. */
final class MicrometerLimitMeters {

    static final String DECISIONS = "rate_limit.decisions";
    static final String NEAR_LIMIT = "rate_limit.near_limit";

    private static final DecidedBy[] DECIDERS = DecidedBy.values();

    private final MeterRegistry registry;
    private final Tags tags;
    /** By mode (enforce, shadow), result (allowed, rejected) and decider. */
    private final Counter[] decisions = new Counter[2 * 2 * DECIDERS.length];
    private volatile Counter nearLimit;

    MicrometerLimitMeters(MeterRegistry registry, String limit, String tenant) {
        this.registry = registry;
        this.tags = tenant == null ? Tags.of("limit", limit) : Tags.of("limit", limit, "tenant", tenant);
    }

    Counter decision(boolean allowed, DecidedBy by, boolean shadow) {
        int index = ((shadow ? 2 : 0) + (allowed ? 0 : 1)) * DECIDERS.length + by.ordinal();
        Counter counter = decisions[index];
        if (counter == null) {
            // a race registers the same meter twice: the registry returns the one it holds
            counter = Counter.builder(DECISIONS)
                    .description("Rate-limit decisions, one per limit of a call")
                    .tags(tags)
                    .tags("result", allowed ? "allowed" : "rejected", "decided_by", by.tag(), "mode",
                            shadow ? "shadow" : "enforce")
                    .register(registry);
            decisions[index] = counter;
        }
        return counter;
    }

    Counter nearLimit() {
        Counter counter = nearLimit;
        if (counter == null) {
            counter = Counter.builder(NEAR_LIMIT)
                    .description("Admitted calls that left less than metrics.near-limit-ratio of the limit")
                    .tags(tags)
                    .register(registry);
            nearLimit = counter;
        }
        return counter;
    }
}
