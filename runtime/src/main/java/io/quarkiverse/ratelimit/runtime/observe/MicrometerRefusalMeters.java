package io.quarkiverse.ratelimit.runtime.observe;

import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Who an instance refused in its last heartbeat, without naming anybody (a tag per caller would grow without bound; the
 * names are the admin's {@code refusedMost}): how many distinct callers ({@code rate_limit.refused.callers}) and the
 * share of the refusals the most refused of them took ({@code rate_limit.refused.top_share}, 0 to 1): near 1, one
 * caller floods; low with many callers, the limits are too tight for everyone. Part of the public metric contract (the
 * observability page lists them).
 */
final class MicrometerRefusalMeters {

    static final String CALLERS = "rate_limit.refused.callers";
    static final String TOP_SHARE = "rate_limit.refused.top_share";

    private MicrometerRefusalMeters() {
    }

    static void register(MeterRegistry registry, IntSupplier callers, DoubleSupplier topShare) {
        Gauge.builder(CALLERS, callers, IntSupplier::getAsInt).strongReference(true)
                .description("Distinct callers (tenants, caller addresses) this instance refused in its last heartbeat")
                .register(registry);
        Gauge.builder(TOP_SHARE, topShare, DoubleSupplier::getAsDouble).strongReference(true)
                .description("The share of this instance's refusals in its last heartbeat that its most refused caller"
                        + " took (0 to 1)")
                .register(registry);
    }
}
