package io.quarkiverse.ratelimit.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.key.TenantTags;
import io.quarkiverse.ratelimit.runtime.policy.ConfiguredLimits;
import io.quarkiverse.ratelimit.runtime.policy.TenantPlans;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/** The {@link RateLimitAdmin} bean: run-time limits in the tenant's {@code <prefix>:{<tenant>}:limits} hash. */
@Singleton
public class RedisRateLimitAdmin implements RateLimitAdmin {

    private final ScriptRunner redis;
    private final RedisRateLimiter limiter;
    private final RateLimitKeys keys;
    private final ConfiguredLimits configured;
    private final TenantPlans plans;
    private final Map<String, List<LimitDefinition>> limitsByPolicy;

    RedisRateLimitAdmin(ScriptRunner redis, RedisRateLimiter limiter, RateLimitKeys keys, ConfiguredLimits configured,
            TenantPlans plans) {
        this.redis = redis;
        this.limiter = limiter;
        this.keys = keys;
        this.configured = configured;
        this.plans = plans;
        this.limitsByPolicy = limitsByOverrideName(configured);
    }

    @Override
    public Uni<Void> setLimit(String tenant, String policy, long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("A limit is greater than zero, not " + limit);
        }
        perTenantLimits(policy);
        return redis.send(Request.cmd(Command.HSET).arg(overridesKey(tenant)).arg(policy).arg(limit)).replaceWithVoid();
    }

    @Override
    public Uni<Void> removeLimit(String tenant, String policy) {
        perTenantLimits(policy);
        return redis.send(Request.cmd(Command.HDEL).arg(overridesKey(tenant)).arg(policy)).replaceWithVoid();
    }

    @Override
    public Uni<Map<String, Long>> limits(String tenant) {
        return redis.send(Request.cmd(Command.HGETALL).arg(overridesKey(tenant))).map(reply -> {
            Map<String, Long> limits = new TreeMap<>();
            if (reply != null) {
                for (String field : reply.getKeys()) {
                    limits.put(field, reply.get(field).toLong());
                }
            }
            return limits;
        });
    }

    @Override
    public Uni<List<RateLimitDecision>> status(String tenant, String policy) {
        List<LimitDefinition> limits = unsplit(perTenantLimits(policy));
        String tag = tag(tenant);
        return plans.plan(tenant, null).flatMap(plan -> {
            List<LimitDefinition> probes = new ArrayList<>(limits.size());
            for (LimitDefinition limit : limits) {
                LimitDefinition planned = configured.configure(limit, plan);
                probes.add(planned.withValues(planned.getLimit(), planned.getWindowMillis(), planned.getAlgorithm(),
                        planned.getBurst(), 0, planned.getScope(), planned.getFailureMode(), planned.getTenantSource()));
            }
            MethodLimits method = new MethodLimits(probes, ReturnKind.UNI);
            return limiter.acquire(keys.keys(method, tag, null, null), probes, keys.overridesKey(tag));
        });
    }

    @Override
    public Uni<Void> reset(String tenant, String policy) {
        List<LimitDefinition> limits = unsplit(perTenantLimits(policy));
        if (limits.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String tag = tag(tenant);
        List<String> counters = keys.keys(new MethodLimits(limits, ReturnKind.UNI), tag, null, null);
        Request delete = Request.cmd(Command.DEL);
        counters.forEach(delete::arg);
        return redis.send(delete).replaceWithVoid();
    }

    @Override
    public List<String> policies() {
        return List.copyOf(limitsByPolicy.keySet());
    }

    private static List<LimitDefinition> unsplit(List<LimitDefinition> limits) {
        return limits.stream().filter(limit -> limit.getKeyParameters().isEmpty()).toList();
    }

    /** The distinct per-tenant limits {@code policy} names (one per limit name and endpoint). */
    private List<LimitDefinition> perTenantLimits(String policy) {
        Objects.requireNonNull(policy, "policy");
        List<LimitDefinition> limits = limitsByPolicy.get(policy);
        if (limits == null) {
            throw new IllegalArgumentException("No per-tenant limit uses the policy or name '" + policy + "'; known: "
                    + policies());
        }
        return limits;
    }

    private static Map<String, List<LimitDefinition>> limitsByOverrideName(ConfiguredLimits configured) {
        Map<String, Map<String, LimitDefinition>> byName = new TreeMap<>();
        configured.all().values().forEach(method -> {
            if (method.limits().callTag() != null) {
                return;
            }
            for (LimitDefinition limit : method.limits().getLimits()) {
                if (limit.getScope() == Scope.TENANT) {
                    byName.computeIfAbsent(limit.overrideName(), name -> new LinkedHashMap<>())
                            .putIfAbsent(limit.getName() + ":" + limit.getEndpoint(), limit);
                }
            }
        });
        Map<String, List<LimitDefinition>> limits = new TreeMap<>();
        byName.forEach((name, distinct) -> limits.put(name, List.copyOf(distinct.values())));
        return java.util.Collections.unmodifiableMap(limits);
    }

    private String overridesKey(String tenant) {
        return keys.overridesKey(tag(tenant));
    }

    private static String tag(String tenant) {
        return TenantTags.forTenant(Objects.requireNonNull(tenant, "tenant"));
    }

}
