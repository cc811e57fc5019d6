package io.quarkiverse.ratelimit.runtime.config;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;

/** Fails start-up, naming the property, when the run-time configuration cannot work. */
@Singleton
public class RateLimitConfigValidator {

    private static final Logger LOG = Logger.getLogger(RateLimitConfigValidator.class);

    static final int MAX_KEY_PREFIX_LENGTH = 64;

    void validate(@Observes StartupEvent event, RateLimitConfig config, RateLimitFixedConfig fixedConfig,
            DeclaredLimits methods, EffectiveLimits configured, RequestTenantResolver tenants) {
        validate(config);
        LimitModes.check(config, configured);
        String clientName = fixedConfig.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME);
        decisionsRunOnAMaster(clientName);
        if (config.durable().replicas() > 0 && ScriptRunner.isCluster(clientName)) {
            throw new ConfigurationException("quarkus.rate-limit.durable.replicas is " + config.durable().replicas()
                    + ", but the Redis client is a cluster client, which cannot send WAIT to a decision's master: use"
                    + " 0 with a cluster", Set.of("quarkus.rate-limit.durable.replicas"));
        }
        configured.all().forEach((methodId, method) -> {
            if (method.tenantRule() != null) {
                tenants.checkUsable(method.tenantRule(), methodId, method.limits().getParameters(),
                        methods.tokensAvailable());
            }
        });
        if (methods.hasConcurrencyLimits()) {
            // @ConcurrencyLimited follows the global rule only: it has no method parameters to take a tenant from
            tenants.checkUsable(configured.defaultTenantRule(), "@ConcurrencyLimited", Map.of(),
                    methods.tokensAvailable());
        }
        Set<String> used = new HashSet<>();
        methods.all().values().forEach(method -> method.getLimits().forEach(limit -> used.add(limit.getPolicy())));
        config.policies().keySet().stream().filter(policy -> !used.contains(policy)).forEach(policy -> LOG.warnf(
                "quarkus.rate-limit.policies.%s is configured, but no @RateLimited(policy = \"%s\") uses it",
                policy, policy));
    }

    /** Every decision writes: a client configured to talk to a replica would fail every one of them (READONLY). */
    static void decisionsRunOnAMaster(String clientName) {
        String roleProperty = RedisConfig.getPropertyName(clientName, "role");
        ConfigProvider.getConfig().getOptionalValue(roleProperty, String.class).ifPresent(role -> {
            if (!role.equalsIgnoreCase("master")) {
                throw new ConfigurationException(roleProperty + " is " + role + ", but the rate limiter's scripts write"
                        + " and must run on a master: use role master, or give the rate limiter its own client with"
                        + " quarkus.rate-limit.redis-client-name");
            }
        });
    }

    static void validate(RateLimitConfig config) {
        String prefix = config.keyPrefix();
        if (prefix.isEmpty() || prefix.length() > MAX_KEY_PREFIX_LENGTH
                || prefix.chars().anyMatch(c -> c == '{' || c == '}' || Character.isWhitespace(c))) {
            throw new ConfigurationException("quarkus.rate-limit.key-prefix must be 1 to " + MAX_KEY_PREFIX_LENGTH
                    + " characters without whitespace, '{' or '}', but is '" + prefix + "'");
        }
        positive("quarkus.rate-limit.decision-timeout", config.decisionTimeout().toMillis());
        if (config.busyTimeout().compareTo(config.decisionTimeout()) < 0) {
            throw new ConfigurationException("quarkus.rate-limit.busy-timeout (" + config.busyTimeout() + ") must be at"
                    + " least quarkus.rate-limit.decision-timeout (" + config.decisionTimeout() + ")",
                    Set.of("quarkus.rate-limit.busy-timeout"));
        }
        if (config.failureMode() == FailureMode.DEFAULT) {
            throw new ConfigurationException(
                    "quarkus.rate-limit.failure-mode must be local, fail-open or fail-closed, but is default");
        }
        positive("quarkus.rate-limit.pipelined-connections", config.pipelinedConnections());
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
        positive("quarkus.rate-limit.local-fallback.expected-instances", config.localFallback().expectedInstances());
        positive("quarkus.rate-limit.local-fallback.max-entries", config.localFallback().maxEntries());
        double nearLimit = config.metrics().nearLimitRatio();
        if (!(nearLimit >= 0 && nearLimit <= 1)) {
            throw new ConfigurationException("quarkus.rate-limit.metrics.near-limit-ratio must be between 0 and 1, but"
                    + " is " + nearLimit, Set.of("quarkus.rate-limit.metrics.near-limit-ratio"));
        }
        positive("quarkus.rate-limit.metrics.max-tenants", config.metrics().maxTenants());
        positive("quarkus.rate-limit.run-time-limits.refresh-interval",
                config.runTimeLimits().refreshInterval().toMillis());
        if (config.tenant().source().orElse(null) == TenantSource.DEFAULT) {
            throw new ConfigurationException("quarkus.rate-limit.tenant.source must be header, principal, jwt-claim,"
                    + " path-parameter or resolver, but is default", Set.of("quarkus.rate-limit.tenant.source"));
        }
        config.policies().forEach((policy, values) -> {
            String invalidName = LimitRules.name(policy);
            if (invalidName != null) {
                throw new ConfigurationException("quarkus.rate-limit.policies.\"" + policy + "\" has an invalid name; "
                        + invalidName, Set.of("quarkus.rate-limit.policies"));
            }
            if (values.tenant().source().orElse(null) == TenantSource.DEFAULT) {
                String property = "quarkus.rate-limit.policies." + policy + ".tenant.source";
                throw new ConfigurationException(property + " must be header, principal, jwt-claim, path-parameter or"
                        + " resolver, but is default", Set.of(property));
            }
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
                    + (property.endsWith("timeout") || property.endsWith("duration") ? " ms" : ""));
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
