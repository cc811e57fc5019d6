package io.quarkiverse.ratelimit.runtime.observe;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The meters of reservations settled at their real cost ({@code RateLimiter.reserve}), per limit: the units reserved
 * (estimates) and settled (real costs) of settled reservations, and the overruns, units charged beyond an estimate
 * ({@code rate_limit.reservation.units}, tag {@code kind}: {@code reserved}, {@code settled}, {@code overrun}). Settled
 * over reserved tells how good the estimates are; a growing overrun is the debt the limit pays back. And the
 * settlements that came after their lease and changed nothing ({@code rate_limit.reservation.late_settlements}). Part of
 * the public metric contract (the observability page lists them).
 */
final class MicrometerReservationMeters {

    static final String UNITS = "rate_limit.reservation.units";
    static final String LATE_SETTLEMENTS = "rate_limit.reservation.late_settlements";

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counter[]> byLimit = new ConcurrentHashMap<>();

    MicrometerReservationMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void settled(String limit, long reserved, long settled) {
        Counter[] units = byLimit.computeIfAbsent(limit, name -> new Counter[] { counter(name, "reserved"),
                counter(name, "settled"), counter(name, "overrun") });
        units[0].increment(reserved);
        units[1].increment(settled);
        if (settled > reserved) {
            units[2].increment(settled - reserved);
        }
    }

    void settledLate(String limit) {
        Counter.builder(LATE_SETTLEMENTS)
                .description("Reservations settled after their lease (quarkus.rate-limit.reservation-lease): the"
                        + " settlement changed nothing, and the call counts at its estimate")
                .tag("limit", limit).register(registry).increment();
    }

    private Counter counter(String limit, String kind) {
        return Counter.builder(UNITS)
                .description("Units of settled reservations: reserved (the estimates), settled (the real costs), overrun"
                        + " (charged beyond an estimate: the limit's debt)")
                .tag("limit", limit).tag("kind", kind).register(registry);
    }
}
