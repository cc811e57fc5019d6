package io.quarkiverse.ratelimit.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Takes the decisions of one call on Redis, one atomic script per limit. Limits are tried in declaration order and
 * the first refusal stops the call: the limits after it are not consumed (the ones before it are; a single atomic
 * decision over several limits is planned).
 */
@Singleton
public class RedisRateLimiter {

    private final ScriptRunner scripts;
    private final RateLimitKeys keys;

    RedisRateLimiter(ScriptRunner scripts, RateLimitKeys keys) {
        this.scripts = scripts;
        this.keys = keys;
    }

    /** The decisions taken, in order; the last one is the refusal if the call was refused. */
    public Uni<List<RateLimitDecision>> acquire(String tenantTag, List<LimitDefinition> limits) {
        if (limits.size() == 1) {
            return acquire(tenantTag, limits.get(0)).map(List::of);
        }
        return acquireFrom(tenantTag, limits, 0, new ArrayList<>(limits.size()));
    }

    private Uni<List<RateLimitDecision>> acquireFrom(String tenantTag, List<LimitDefinition> limits, int index,
            List<RateLimitDecision> taken) {
        return acquire(tenantTag, limits.get(index)).flatMap(decision -> {
            taken.add(decision);
            if (!decision.allowed() || index + 1 == limits.size()) {
                return Uni.createFrom().item(taken);
            }
            return acquireFrom(tenantTag, limits, index + 1, taken);
        });
    }

    public Uni<RateLimitDecision> acquire(String tenantTag, LimitDefinition limit) {
        return scripts.run(scripts.scripts().forAlgorithm(limit.getAlgorithm()),
                List.of(keys.key(tenantTag, limit)),
                limit.scriptArguments())
                .map(reply -> decision(limit, reply));
    }

    /** Every script returns {@code {allowed, remaining, reset_ms, retry_after_ms}}. */
    static RateLimitDecision decision(LimitDefinition limit, Response reply) {
        boolean allowed = reply.get(0).toLong() == 1;
        long remaining = Math.max(0, reply.get(1).toLong());
        Duration resetAfter = Duration.ofMillis(reply.get(2).toLong());
        long retryAfterMillis = reply.get(3).toLong();
        Duration retryAfter = retryAfterMillis < 0 ? null : Duration.ofMillis(retryAfterMillis);
        return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), allowed, remaining, resetAfter,
                retryAfter, false);
    }
}
