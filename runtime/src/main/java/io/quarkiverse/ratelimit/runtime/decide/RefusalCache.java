package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * Refusals Redis has made, repeated locally until Redis said the call could fit again: a tenant flooding a limit it
 * has exhausted costs Redis nothing until then. It never admits: a key it holds nothing for, or holds for another limit
 * value or a smaller cost, goes to Redis. The retry time is counted from when the call was sent, so it never ends
 * later than the one Redis computed. Bounded ({@code refusal-cache.max-entries}, least recently used dropped); entries
 * expire at their retry time.
 */
final class RefusalCache {

    /** One refusal: of {@code cost} units of the limit with these values, until {@code untilNanos}. */
    private record Refusal(long limit, long windowMillis, int algorithm, long cost, long remaining, long resetNanos,
            long untilNanos) {
    }

    private final Cache<String, Refusal> refusals;
    private final LongSupplier nanoTime;

    RefusalCache(int maxEntries, LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.refusals = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .ticker(nanoTime::getAsLong)
                .expireAfter(new Expiry<String, Refusal>() {
                    @Override
                    public long expireAfterCreate(String key, Refusal refusal, long now) {
                        return Math.max(0, refusal.untilNanos() - now);
                    }

                    @Override
                    public long expireAfterUpdate(String key, Refusal refusal, long now, long current) {
                        return expireAfterCreate(key, refusal, now);
                    }

                    @Override
                    public long expireAfterRead(String key, Refusal refusal, long now, long current) {
                        return current;
                    }
                })
                .build();
    }

    /**
     * The call's refusal without Redis, when this instance holds one for a limit of the call: the decisions of the
     * limits it refuses (the others are unknown here, and the call is refused anyway); {@code null} to ask Redis.
     */
    List<RateLimitDecision> refusal(List<String> keys, List<LimitDefinition> limits) {
        List<RateLimitDecision> refused = null;
        long now = 0;
        for (int i = 0; i < keys.size(); i++) {
            LimitDefinition limit = limits.get(i);
            if (!limit.isCacheRefusals()) {
                continue;
            }
            Refusal refusal = refusals.getIfPresent(keys.get(i));
            if (refusal == null || !refuses(refusal, limit)) {
                continue;
            }
            if (refused == null) {
                refused = new ArrayList<>(1);
                now = nanoTime.getAsLong();
            }
            if (now >= refusal.untilNanos()) {
                return null;
            }
            refused.add(new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), false,
                    refusal.remaining(), Duration.ofNanos(Math.max(0, refusal.resetNanos() - now)),
                    Duration.ofNanos(refusal.untilNanos() - now), false));
        }
        return refused;
    }

    /** Remembers what Redis refused for a call sent at {@code sentNanos}. */
    void remember(List<String> keys, List<LimitDefinition> limits, List<RateLimitDecision> decisions, long sentNanos) {
        for (int i = 0; i < decisions.size(); i++) {
            RateLimitDecision decision = decisions.get(i);
            LimitDefinition limit = limits.get(i);
            // a refusal with no retry time (the cost can never fit) is rare and left to Redis
            if (decision.allowed() || decision.retryAfter() == null || !limit.isCacheRefusals()) {
                continue;
            }
            refusals.put(keys.get(i), new Refusal(limit.getLimit(), limit.getWindowMillis(),
                    limit.getAlgorithm().ordinal(), limit.getCost(), decision.remaining(),
                    sentNanos + decision.resetAfter().toNanos(), sentNanos + decision.retryAfter().toNanos()));
        }
    }

    /** Forgets a key whose state changed here (a refund, a reset). */
    void forget(String key) {
        refusals.invalidate(key);
    }

    /** How many refusals are held (tests, metrics). */
    long size() {
        refusals.cleanUp();
        return refusals.estimatedSize();
    }

    private static boolean refuses(Refusal refusal, LimitDefinition limit) {
        return refusal.limit() == limit.getLimit() && refusal.windowMillis() == limit.getWindowMillis()
                && refusal.algorithm() == limit.getAlgorithm().ordinal() && limit.getCost() >= refusal.cost();
    }

}
