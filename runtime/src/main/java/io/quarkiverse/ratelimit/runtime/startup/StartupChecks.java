package io.quarkiverse.ratelimit.runtime.startup;

import java.util.Map;
import java.util.Set;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.runtime.config.BuildCapabilities;
import io.quarkiverse.ratelimit.runtime.config.ConfigChecks;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredConcurrencyLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Every check made at start-up, in one place, in order: what configuration can change (it may come from the
 * environment at start-up) is checked here, what an annotation says at build time ({@code deployment/}). Each failure
 * fails start-up naming its property. The rules themselves live with what they are about, and this class calls each:
 * <ol>
 * <li>the configuration's own values ({@link ConfigChecks});</li>
 * <li>every limit after policies and plans ({@link EffectiveLimits}, which checks them as it computes them: a policy
 * or plan that sets an invalid value, a policy, plan or tenant's plan that names nothing, methods sharing a limit that
 * configuration made disagree);</li>
 * <li>modes and rollout ({@link LimitModes#check});</li>
 * <li>the Redis client: decisions write, so on a master; durable decisions not through a cluster client;</li>
 * <li>each method's tenant can be found ({@link RequestTenantResolver#checkUsable}).</li>
 * </ol>
 */
@Singleton
public class StartupChecks {

    /**
     * First among the start-up observers: what opens connections (the scripts' preload, the invalidation subscription,
     * the run-time settings) runs only for an application that passed the checks.
     */
    void check(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event, RateLimitConfig config,
            RateLimitBuildConfig fixedConfig,
            DeclaredConcurrencyLimits concurrencyMethods, BuildCapabilities capabilities,
            EffectiveLimits configured, RequestTenantResolver tenants) {
        ConfigChecks.check(config); // configured limits were checked as they were computed, to be injected here
        LimitModes.check(config, configured);
        String clientName = RateLimitBuildConfig.redisClient(fixedConfig);
        decisionsRunOnAMaster(clientName);
        if (config.durable().replicas() > 0 && RedisTransport.isCluster(clientName)) {
            throw new ConfigurationException("quarkus.rate-limit.durable.replicas is " + config.durable().replicas()
                    + ", but the Redis client is a cluster client, which cannot send WAIT to a decision's master: use"
                    + " 0 with a cluster", Set.of("quarkus.rate-limit.durable.replicas"));
        }
        configured.all().forEach((methodId, method) -> {
            if (method.tenantRule() != null) {
                tenants.checkUsable(method.tenantRule(), methodId, method.limits().getParameters(),
                        capabilities.tokensAvailable());
            }
        });
        if (fixedConfig.usage().enabled()) {
            usageEndpoint(config, configured, tenants, capabilities);
        }
        if (concurrencyMethods.any()) {
            // @ConcurrencyLimited follows the global rule only: it has no method parameters to take a tenant from
            tenants.checkUsable(configured.defaultTenantRule(), "@ConcurrencyLimited", Map.of(),
                    capabilities.tokensAvailable());
        }
    }

    /**
     * The usage endpoint finds its tenant by the application's rule, with no method parameter to take one from, and
     * reads under a limit of its own: both must work.
     */
    private static void usageEndpoint(RateLimitConfig config, EffectiveLimits configured, RequestTenantResolver tenants,
            BuildCapabilities capabilities) {
        tenants.checkUsable(configured.defaultTenantRule(), "The usage endpoint (quarkus.rate-limit.usage.enabled)",
                Map.of(), capabilities.tokensAvailable());
        String invalid = LimitRules.limit(config.usage().limit());
        if (invalid != null) {
            throw new ConfigurationException("quarkus.rate-limit.usage.limit is " + config.usage().limit() + "; "
                    + invalid, Set.of("quarkus.rate-limit.usage.limit"));
        }
        if (config.usage().window().isNegative() || config.usage().window().isZero()) {
            throw new ConfigurationException("quarkus.rate-limit.usage.window is " + config.usage().window()
                    + "; it must be longer than zero", Set.of("quarkus.rate-limit.usage.window"));
        }
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
}
