package io.quarkiverse.ratelimit.runtime.key;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;

/**
 * Names the Redis key of one tenant's counter for one limit:
 * {@code <prefix>:{<tenant tag>}:<limit name>[:<endpoint>][:<argument>...]:<algorithm>}. The tenant tag is the hash
 * tag, so every key of a tenant lives in one Redis Cluster slot; the endpoint (HTTP method and path template) and the
 * escaped argument values appear only for limits counted per endpoint or per parameter; the algorithm suffix keeps a
 * changed algorithm from reading another's data.
 */
@Singleton
public class RateLimitKeys {

    private final String prefix;

    RateLimitKeys(RateLimitConfig config) {
        this.prefix = config.keyPrefix();
    }

    /** The tag of everyone's counter of a {@link Scope#GLOBAL} limit. */
    static final String GLOBAL = "~global";

    /** The tag of argument values that are {@code null}; escaping never produces it. */
    static final String NULL_ARGUMENT = "~null";

    /** The key of one tenant's counter of a limit that is not split per parameter. */
    public String key(String tenantTag, LimitDefinition limit) {
        return key(null, tenantTag, limit, null);
    }

    /**
     * The keys of every limit of one call of a method; one hash tag for all of them (see {@link MethodLimits#callTag()}).
     *
     * @param arguments the call's arguments, for limits counted per parameter
     */
    public List<String> keys(MethodLimits method, String tenantTag, String clientTag, Object[] arguments) {
        List<LimitDefinition> limits = method.getLimits();
        List<String> keys = new ArrayList<>(limits.size());
        for (LimitDefinition limit : limits) {
            String subject = switch (limit.getScope()) {
                case TENANT -> tenantTag;
                case CLIENT_ADDRESS -> clientTag;
                case GLOBAL -> GLOBAL;
            };
            keys.add(key(method.callTag(), subject, limit, arguments));
        }
        return keys;
    }

    /**
     * @param callTag the hash tag of a call that mixes scopes, {@code null} when the subject is the tag
     * @param arguments the call's arguments, for limits counted per parameter ({@code null}: none known)
     */
    private String key(String callTag, String subject, LimitDefinition limit, Object[] arguments) {
        StringBuilder key = new StringBuilder(96).append(prefix).append(":{");
        if (callTag == null) {
            key.append(subject).append('}');
        } else {
            key.append(callTag).append("}:").append(subject);
        }
        key.append(':').append(limit.getName());
        if (limit.getEndpoint() != null) {
            key.append(':').append(limit.getEndpoint());
        }
        for (int position : limit.getKeyParameters()) {
            Object value = arguments == null ? null : arguments[position];
            key.append(':').append(value == null ? NULL_ARGUMENT : TenantTags.forTenant(value.toString()));
        }
        return key.append(':').append(suffix(limit.getAlgorithm())).toString();
    }

    /** The keys of limits that all count one tenant, not split per parameter (the programmatic and admin APIs). */
    public List<String> keys(String tenantTag, List<LimitDefinition> limits) {
        List<String> keys = new ArrayList<>(limits.size());
        for (LimitDefinition limit : limits) {
            keys.add(key(tenantTag, limit));
        }
        return keys;
    }

    /** The leases of a tenant's {@code @ConcurrencyLimited} calls: {@code <prefix>:{<tenant tag>}:<name>:cl}. */
    public String concurrencyKey(String tenantTag, String name) {
        return prefix + ":{" + tenantTag + "}:" + name + ":cl";
    }

    /**
     * The pub/sub channel of invalidations, {@code <prefix>:invalidations}: where the changes that can turn a refusal
     * into an admission are announced to every instance. A channel, not a key: it holds nothing.
     */
    public String invalidationChannel() {
        return prefix + ":invalidations";
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
