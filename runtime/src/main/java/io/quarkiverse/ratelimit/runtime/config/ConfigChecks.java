package io.quarkiverse.ratelimit.runtime.config;

import java.time.ZoneId;
import java.util.Set;

import io.quarkiverse.ratelimit.LimitRules;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The checks of the configuration's own values (each alone, or two against each other), run at start-up by
 * {@code StartupChecks}: each failure names its property.
 */
public final class ConfigChecks {

    static final int MAX_KEY_PREFIX_LENGTH = 64;

    private ConfigChecks() {
    }

    /**
     * The one rule for enum settings whose {@code DEFAULT} constant means "not set here" ({@code failure-mode},
     * {@code tenant.source}): configuration must name a real value.
     */
    public static void notDefault(String property, Enum<?> value) {
        if (value != null && value.name().equals("DEFAULT")) {
            throw new ConfigurationException(property + " must be one of "
                    + String.join(", ", ConfigSpelling.realValues(value.getDeclaringClass())) + ", but is default",
                    Set.of(property));
        }
    }

    /** A calendar period's time zone: an IANA name or {@code UTC}, known to this JVM. */
    public static void timeZone(String property, String zone) {
        try {
            ZoneId.of(zone);
        } catch (RuntimeException e) {
            throw new ConfigurationException(property + " is '" + zone + "', which is not a time zone; use an IANA name"
                    + " such as Europe/Berlin, or UTC", Set.of(property));
        }
    }

    private static void adaptive(AdaptiveConfig adaptive) {
        share("quarkus.rate-limit.adaptive.decrease-factor", adaptive.decreaseFactor(), "the share of the learned"
                + " limit a 429 leaves");
        share("quarkus.rate-limit.adaptive.increase-step", adaptive.increaseStep(), "the share of the configured"
                + " limit the learned limit first grows by");
        positive("quarkus.rate-limit.adaptive.increase-interval", adaptive.increaseInterval().toMillis());
        if (adaptive.longestHold().compareTo(adaptive.increaseInterval()) < 0) {
            throw new ConfigurationException("quarkus.rate-limit.adaptive.longest-hold (" + adaptive.longestHold()
                    + ") must be at least quarkus.rate-limit.adaptive.increase-interval ("
                    + adaptive.increaseInterval() + ")", Set.of("quarkus.rate-limit.adaptive.longest-hold"));
        }
    }

    /** A share strictly between 0 and 1. */
    private static void share(String property, double value, String what) {
        if (!(value > 0 && value < 1)) {
            throw new ConfigurationException(property + " is " + what + ": above 0 and below 1, but is " + value,
                    Set.of(property));
        }
    }

    public static void check(RateLimitConfig config) {
        String prefix = config.keyPrefix();
        if (prefix.isEmpty() || prefix.length() > MAX_KEY_PREFIX_LENGTH
                || prefix.chars().anyMatch(c -> c == '{' || c == '}' || Character.isWhitespace(c))) {
            throw new ConfigurationException("quarkus.rate-limit.key-prefix must be 1 to " + MAX_KEY_PREFIX_LENGTH
                    + " characters without whitespace, '{' or '}', but is '" + prefix + "'");
        }
        positive("quarkus.rate-limit.decision-timeout", config.decisionTimeout().toMillis());
        timeZone("quarkus.rate-limit.time-zone", config.timeZone());
        if (config.busyTimeout().compareTo(config.decisionTimeout()) < 0) {
            throw new ConfigurationException("quarkus.rate-limit.busy-timeout (" + config.busyTimeout() + ") must be at"
                    + " least quarkus.rate-limit.decision-timeout (" + config.decisionTimeout() + ")",
                    Set.of("quarkus.rate-limit.busy-timeout"));
        }
        if (config.lateSlotTolerance().isNegative()) {
            throw new ConfigurationException("quarkus.rate-limit.late-slot-tolerance must be zero or more, but is "
                    + config.lateSlotTolerance(), Set.of("quarkus.rate-limit.late-slot-tolerance"));
        }
        adaptive(config.adaptive());
        notDefault("quarkus.rate-limit.failure-mode", config.failureMode());
        config.pipelinedConnections().ifPresent(count -> positive("quarkus.rate-limit.pipelined-connections", count));
        positive("quarkus.rate-limit.max-decisions-per-call", config.maxDecisionsPerCall());
        config.thresholds().ifPresent(thresholds -> thresholds.forEach(percent -> {
            if (percent < 1 || percent > 100) {
                throw new ConfigurationException("quarkus.rate-limit.thresholds holds " + percent
                        + ", but a threshold is a share of the limit from 1 to 100 percent",
                        Set.of("quarkus.rate-limit.thresholds"));
            }
        }));
        if (config.durable().replicas() < 0) {
            throw new ConfigurationException("quarkus.rate-limit.durable.replicas must be 0 (off) or more, but is "
                    + config.durable().replicas(), Set.of("quarkus.rate-limit.durable.replicas"));
        }
        positive("quarkus.rate-limit.durable.timeout", config.durable().timeout().toMillis());
        if (config.durable().timeout().compareTo(config.decisionTimeout()) >= 0) {
            throw new ConfigurationException("quarkus.rate-limit.durable.timeout (" + config.durable().timeout()
                    + ") must be less than quarkus.rate-limit.decision-timeout (" + config.decisionTimeout() + ")",
                    Set.of("quarkus.rate-limit.durable.timeout"));
        }
        positive("quarkus.rate-limit.circuit-breaker.failure-threshold", config.circuitBreaker().failureThreshold());
        positive("quarkus.rate-limit.circuit-breaker.open-duration", config.circuitBreaker().openDuration().toMillis());
        if (config.localFallback().expectedInstances().isPresent()) {
            positive("quarkus.rate-limit.local-fallback.expected-instances",
                    config.localFallback().expectedInstances().getAsInt());
        }
        positive("quarkus.rate-limit.fleet.heartbeat", config.fleet().heartbeat().toMillis());
        positive("quarkus.rate-limit.leases.duration", config.leases().duration().toMillis());
        positive("quarkus.rate-limit.leases.min-slice", config.leases().minSlice());
        positive("quarkus.rate-limit.local-fallback.max-entries", config.localFallback().maxEntries());
        double nearLimit = config.metrics().nearLimitRatio();
        if (!(nearLimit >= 0 && nearLimit <= 1)) {
            throw new ConfigurationException("quarkus.rate-limit.metrics.near-limit-ratio must be between 0 and 1, but"
                    + " is " + nearLimit, Set.of("quarkus.rate-limit.metrics.near-limit-ratio"));
        }
        positive("quarkus.rate-limit.metrics.max-tenants", config.metrics().maxTenants());
        positive("quarkus.rate-limit.run-time-limits.refresh-interval",
                config.runTimeLimits().refreshInterval().toMillis());
        notDefault("quarkus.rate-limit.tenant.source", config.tenant().source().orElse(null));
        config.policies().forEach((policy, values) -> {
            String invalidName = LimitRules.name(policy);
            if (invalidName != null) {
                throw new ConfigurationException("quarkus.rate-limit.policies.\"" + policy + "\" has an invalid name; "
                        + invalidName, Set.of("quarkus.rate-limit.policies"));
            }
            notDefault("quarkus.rate-limit.policies." + policy + ".tenant.source",
                    values.tenant().source().orElse(null));
        });
        config.tenant().header().ifPresent(header -> {
            if (!isHttpToken(header)) {
                throw new ConfigurationException(
                        "quarkus.rate-limit.tenant.header must be an HTTP header name, but is '" + header + "'");
            }
        });
    }

    private static void positive(String property, long value) {
        if (value <= 0) {
            throw new ConfigurationException(property + " must be greater than zero, but is " + value
                    + (property.endsWith("timeout") || property.endsWith("duration") || property.endsWith("heartbeat") ? " ms"
                            : ""));
        }
    }

    private static boolean isHttpToken(String value) {
        if (value.isEmpty()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean tchar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!tchar) {
                return false;
            }
        }
        return true;
    }
}
