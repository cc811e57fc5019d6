package io.quarkiverse.ratelimit.runtime.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.redis.model.LimitModel;
import io.vertx.core.Future;

/**
 * Counts kept in this JVM on the exact models of the Lua modules ({@code ScriptsMatchTheirModelsTest} holds them to
 * the shipped scripts), on a clock the test drives: the {@link CountStore} of unit tests that need no Redis.
 * <p>
 * What a unit test does not need is left out: a key keeps the limit it was first decided with (Redis takes the limit
 * with every call), calls that wait for a later slot and the calendar window are refused with
 * {@link IllegalArgumentException}, and nothing is announced to other instances.
 */
public final class InMemoryCountStore implements CountStore {

    private final LongSupplier nowMicros;
    private final Map<String, LimitModel> counts = new HashMap<>();
    private final Map<String, Long> pausedUntilMicros = new HashMap<>();

    /** @param nowMicros the store's clock, in microseconds (the scripts' clock) */
    public InMemoryCountStore(LongSupplier nowMicros) {
        this.nowMicros = nowMicros;
    }

    @Override
    public synchronized Future<List<RateLimitDecision>> decide(List<String> keys, List<LimitDefinition> limits,
            ShadowMask shadow) {
        long now = nowMicros.getAsLong();
        List<LimitModel.Check> checks = new ArrayList<>(limits.size());
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        boolean admitted = true;
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            long pausedFor = pausedUntilMicros.getOrDefault(keys.get(i), now) - now;
            LimitModel.Check check = pausedFor > 0
                    ? new LimitModel.Check(new LimitModel.Reply(false, 0, millis(pausedFor), millis(pausedFor)), () -> {
                    })
                    : model(keys.get(i), limit, now).check(now, limit.getCost());
            checks.add(check);
            decisions.add(decision(limit, check.reply()));
            admitted &= check.reply().allowed() || shadow.contains(i);
        }
        if (admitted) {
            checks.forEach(check -> check.commit().run()); // a refusing shadow limit's commit records nothing
        }
        return Future.succeededFuture(decisions);
    }

    @Override
    public synchronized Future<Void> refund(List<String> keys, List<LimitDefinition> limits) {
        long now = nowMicros.getAsLong();
        for (int i = 0; i < limits.size(); i++) {
            model(keys.get(i), limits.get(i), now).refund(now, limits.get(i).getCost());
        }
        return Future.succeededFuture();
    }

    @Override
    public synchronized Future<List<RateLimitDecision>> settle(List<String> keys, List<LimitDefinition> limits) {
        long now = nowMicros.getAsLong();
        List<RateLimitDecision> after = new ArrayList<>(limits.size());
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            LimitModel model = model(keys.get(i), limit, now);
            if (limit.getCost() < 0) {
                model.refund(now, -limit.getCost());
            } else if (limit.getCost() > 0) {
                model.charge(now, limit.getCost());
            }
            after.add(decision(limit, model.check(now, 0).reply()));
        }
        return Future.succeededFuture(after);
    }

    @Override
    public synchronized Future<Void> pause(List<String> keys, List<LimitDefinition> limits, Duration pause) {
        long until = nowMicros.getAsLong() + Math.max(1, pause.toMillis()) * 1000;
        for (int i = 0; i < limits.size(); i++) {
            Algorithm algorithm = limits.get(i).getAlgorithm();
            if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.GCRA) {
                pausedUntilMicros.merge(keys.get(i), until, Math::max);
            }
        }
        return Future.succeededFuture();
    }

    @Override
    public synchronized Future<Integer> reset(List<String> keys) {
        long now = nowMicros.getAsLong();
        int held = 0;
        for (String key : keys) {
            LimitModel model = counts.remove(key);
            pausedUntilMicros.remove(key);
            if (model != null && !model.expire(now) && model.present()) {
                held++;
            }
        }
        return Future.succeededFuture(held);
    }

    private LimitModel model(String key, LimitDefinition limit, long now) {
        if (limit.getMaxWaitMillis() > 0) {
            throw new IllegalArgumentException(limit.getName() + " waits for a later slot: not kept in memory");
        }
        LimitModel model = counts.computeIfAbsent(key,
                ignored -> LimitModel.of(limit.getAlgorithm(), limit.getLimit(), limit.getWindowMillis(),
                        limit.getBurst()));
        model.expire(now);
        return model;
    }

    private static RateLimitDecision decision(LimitDefinition limit, LimitModel.Reply reply) {
        return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), reply.allowed(),
                reply.remaining(), Duration.ofMillis(reply.resetMillis()), Duration.ofMillis(reply.retryAfterMillis()),
                false);
    }

    private static long millis(long micros) {
        return -Math.floorDiv(-micros, 1000);
    }
}
