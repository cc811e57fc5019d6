package io.quarkiverse.ratelimit.runtime.key;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;
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

    @Inject
    RateLimitKeys(RateLimitConfig config) {
        this(config.keyPrefix());
    }

    /** @param prefix {@code quarkus.rate-limit.key-prefix} */
    RateLimitKeys(String prefix) {
        this.prefix = prefix;
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
     * The keys of every limit of one call of a method, all with one hash tag, so that one script call stays in one
     * cluster slot: the tenant's when every limit is per tenant, else {@link #callTag} (the subject then follows it).
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
            keys.add(key(method.mixedScopeName(), subject, limit, arguments));
        }
        return keys;
    }

    /**
     * The hash tag of every key of a call of {@code method} when it mixes scopes: {@code ~m:} and the name of its first
     * limit that is not per tenant; {@code null} when every limit is per tenant and the tenant is the tag.
     */
    public static String callTag(MethodLimits method) {
        return method.mixedScopeName() == null ? null : MIXED_SCOPES + method.mixedScopeName();
    }

    /** The start of a call tag; no tenant tag starts with {@code ~} (escaping never produces it). */
    static final String MIXED_SCOPES = "~m:";

    /**
     * @param mixedScopeName {@link MethodLimits#mixedScopeName()}: the call's own tag when not {@code null}, else the
     *        subject is the tag
     * @param arguments the call's arguments, for limits counted per parameter ({@code null}: none known)
     */
    private String key(String mixedScopeName, String subject, LimitDefinition limit, Object[] arguments) {
        if (mixedScopeName == null && limit.getKeyParameters().isEmpty()) {
            // the usual key, built in one allocation of its exact size: every decision names its keys
            String algorithm = suffix(limit.getAlgorithm());
            return limit.getEndpoint() == null ? prefix + ":{" + subject + "}:" + limit.getName() + ':' + algorithm
                    : prefix + ":{" + subject + "}:" + limit.getName() + ':' + limit.getEndpoint() + ':' + algorithm;
        }
        StringBuilder key = new StringBuilder(96).append(prefix).append(":{");
        if (mixedScopeName == null) {
            key.append(subject).append('}');
        } else {
            key.append(MIXED_SCOPES).append(mixedScopeName).append("}:").append(subject);
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

    /**
     * The marker that a limit's key reached a threshold in a period, {@code <limit key>:th<percent>:<period>}: in the
     * limit key's hash slot, written once ({@code SET NX}) by the instance whose call crossed it first.
     */
    public static String thresholdMarker(String limitKey, int percent, long period) {
        return limitKey + ":th" + percent + ":" + period;
    }

    /** The leases of a tenant's {@code @ConcurrencyLimited} calls: {@code <prefix>:{<tenant tag>}:<name>:cl}. */
    public String concurrencyKey(String tenantTag, String name) {
        return prefix + ":{" + tenantTag + "}:" + name + ":cl";
    }

    /**
     * The mark of a concurrency lease its caller gave up ({@code lua/cancel_lease.lua}):
     * {@code <leases key>:<lease id>}, in the leases' hash slot.
     */
    public static String cancelledLeaseKey(String leasesKey, String leaseId) {
        return leasesKey + ":" + leaseId;
    }

    /**
     * The hash of tenants' run-time limits, {@code <prefix>:{~run-time-limits}} (field {@code "<tenant tag> <policy>"}):
     * configuration, not a counter, so it has no TTL. Its hash tag is its own: no tenant tag starts with {@code ~}.
     */
    public String runTimeLimitsKey() {
        return prefix + ":{~run-time-limits}";
    }

    /**
     * The hash of what adaptive limits learned, {@code <prefix>:{~learned-limits}} (field: the limit key,
     * {@code lua/adapt.lua}); its TTL is set by the script.
     */
    public String learnedLimitsKey() {
        return prefix + ":{~learned-limits}";
    }

    /**
     * The hash of the limits made in code that calls have used, {@code <prefix>:{~code-limits}} (field: the limit's
     * name), so that any instance can name a limit another one used: a catalogue, kept 30 days after its last write.
     */
    public String codeLimitsKey() {
        return prefix + ":{~code-limits}";
    }

    /**
     * The sorted set of the live instances, {@code <prefix>:{~fleet}} (member: an instance's id, score: when it last
     * announced itself, {@code lua/fleet.lua}); its TTL is set by the script.
     */
    public String fleetKey() {
        return prefix + ":{~fleet}";
    }

    /**
     * The ring of who is refused most ({@code lua/refused.lua}): 60 sorted sets {@code <prefix>:{~refused}:<0..59>},
     * one per minute of the last hour (member: a caller, score: its refusals that minute), each expiring with its hour.
     */
    public List<String> refusedRing() {
        List<String> ring = new ArrayList<>(60);
        for (int minute = 0; minute < 60; minute++) {
            ring.add(prefix + ":{~refused}:" + minute);
        }
        return List.copyOf(ring);
    }

    /** The counter every change of the run-time limits or switches increments: {@code <run-time limits key>:version}. */
    public String runTimeLimitsVersionKey() {
        return runTimeLimitsKey() + ":version";
    }

    /** The hash of the run-time switches ({@code "<policy or name> <setting>"}): {@code <run-time limits key>:switches}. */
    public String switchesKey() {
        return runTimeLimitsKey() + ":switches";
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
            case SLIDING_WINDOW_COUNTER -> "sw";
            case SLIDING_WINDOW_LOG -> "sl";
            case TOKEN_BUCKET -> "tb";
            case GCRA -> "gc";
            case CALENDAR_WINDOW -> "cw";
        };
    }
}
