package io.quarkiverse.ratelimit.runtime.key;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;

/**
 * Names the Redis key of one tenant's counter for one limit:
 * {@code <prefix>:{<tenant tag>}:<limit name>:<algorithm>}. The tenant tag is the hash tag, so every key of a tenant
 * lives in one Redis Cluster slot; the algorithm suffix keeps a changed algorithm from reading another's data.
 */
@Singleton
public class RateLimitKeys {

    private final String prefix;

    RateLimitKeys(RateLimitConfig config) {
        this.prefix = config.keyPrefix();
    }

    public String key(String tenantTag, LimitDefinition limit) {
        return prefix + ":{" + tenantTag + "}:" + limit.getName() + ':' + suffix(limit.getAlgorithm());
    }

    /** The leases of a tenant's {@code @ConcurrencyLimited} calls: {@code <prefix>:{<tenant tag>}:<name>:cl}. */
    public String concurrencyKey(String tenantTag, String name) {
        return prefix + ":{" + tenantTag + "}:" + name + ":cl";
    }

    static String suffix(Algorithm algorithm) {
        return switch (algorithm) {
            case FIXED_WINDOW -> "fw";
            case SLIDING_WINDOW_COUNTER -> "swc";
            case SLIDING_WINDOW_LOG -> "swl";
            case TOKEN_BUCKET -> "tb";
            case GCRA -> "gcra";
        };
    }
}
