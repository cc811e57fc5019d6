package io.quarkiverse.ratelimit.runtime.resilience;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.cache.CacheBuiltOnFirstWrite;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;

/**
 * Refusals Redis has made, repeated locally so that a tenant flooding a limit it has exhausted costs Redis nothing: a
 * cache of Redis's truth, which never outlives it.
 * <ul>
 * <li><b>Never admits.</b> A call it holds nothing for, or holds for other keys, other limit values or a smaller cost,
 * goes to Redis.</li>
 * <li><b>Ends when Redis would admit.</b> An entry expires at the retry time Redis gave, counted from when the call was
 * sent, so never later than Redis's; for a call that may wait, its maximum wait earlier.</li>
 * <li><b>Ends when Redis changes.</b> Every change that can turn a refusal into an admission (a refund, a reset, on
 * any instance) is published by the script that makes it; {@link #forget} drops the entries of those keys, and
 * {@link #forgetAll} every entry (run-time limits or switches changed, the invalidations resubscribed).</li>
 * <li><b>Ends with a reply that crossed a change.</b> A reply that left Redis before a change may arrive after the
 * change's invalidation (they travel on different connections): a call remembers the invalidation {@link #stamp} of
 * its keys when sent, and its refusal is not held when the stamp moved meanwhile.</li>
 * <li><b>Answers only while invalidations are heard.</b> When this instance cannot confirm that it receives them
 * ({@code live} false: the subscription is down or silent), it answers nothing and every call goes to Redis.</li>
 * </ul>
 * A refusal it answers is the one Redis gave: the decision of every limit of the call (the admitting ones as Redis
 * reported them), the times counted down. Bounded ({@code refusal-cache.max-entries}, least recently used dropped).
 */
final class RefusalCache {

    /** Invalidation counters by key hash: a collision only keeps a refusal from being held, never holds a stale one. */
    private static final int STRIPES = 4096;

    /**
     * A refused call as Redis decided it: its keys and limits, every limit's decision, when it was sent and until when
     * it stays refused ({@link System#nanoTime()} scale).
     */
    private record Refusal(List<String> keys, List<LimitDefinition> limits, List<RateLimitDecision> decisions,
            long sentNanos, long untilNanos) {
    }

    private final CacheBuiltOnFirstWrite<String, Refusal> refusals;
    private final LongSupplier nanoTime;
    private final BooleanSupplier live;
    private final AtomicLongArray invalidations = new AtomicLongArray(STRIPES);
    private final AtomicLong everything = new AtomicLong();

    /** @param live whether this instance hears invalidations now: the cache answers only then */
    RefusalCache(int maxEntries, LongSupplier nanoTime, BooleanSupplier live) {
        this.nanoTime = nanoTime;
        this.live = live;
        this.refusals = new CacheBuiltOnFirstWrite<>(() -> Caffeine.newBuilder()
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
                .<String, Refusal> build());
    }

    /**
     * The call's refusal without Redis, when this instance holds one for these keys and limits: every limit's
     * decision, as Redis gave them; {@code null} to ask Redis.
     */
    List<RateLimitDecision> refusal(List<String> keys, List<LimitDefinition> limits) {
        Cache<String, Refusal> refusals = this.refusals.ifBuilt();
        if (refusals == null) {
            return null; // nothing was ever refused here
        }
        Refusal held = null;
        for (int i = 0; i < keys.size() && held == null; i++) {
            if (limits.get(i).isCacheRefusals()) {
                Refusal refusal = refusals.getIfPresent(keys.get(i));
                if (refusal != null && refuses(refusal, keys, limits)) {
                    held = refusal;
                }
            }
        }
        if (held == null || !live.getAsBoolean()) {
            return null;
        }
        long now = nanoTime.getAsLong();
        // a call that may wait is refused only while its slot lies further ahead than it may wait
        if (now >= held.untilNanos() - WaitingCalls.maxWaitMillis(limits) * 1_000_000) {
            return null;
        }
        List<RateLimitDecision> decisions = new ArrayList<>(held.decisions().size());
        for (int i = 0; i < held.decisions().size(); i++) {
            decisions.add(countedDown(held.decisions().get(i), limits.get(i), held.sentNanos(), now));
        }
        return decisions;
    }

    /**
     * The invalidation stamp of {@code keys} now: taken when a call is sent, and given back to {@link #remember}, which
     * holds nothing when an invalidation of one of the keys (or of everything) came in between.
     */
    long stamp(List<String> keys) {
        long stamp = everything.get();
        for (int i = 0; i < keys.size(); i++) {
            stamp += invalidations.get(stripe(keys.get(i)));
        }
        return stamp;
    }

    /**
     * Remembers what Redis refused for a call sent at {@code sentNanos} with the invalidation stamp {@code stamp}: under
     * the key of every limit that refused it, for as long as that limit said.
     */
    void remember(List<String> keys, List<LimitDefinition> limits, List<RateLimitDecision> decisions, long sentNanos,
            long stamp) {
        boolean held = false;
        for (int i = 0; i < decisions.size(); i++) {
            RateLimitDecision decision = decisions.get(i);
            // a refusal with no retry time (the cost can never fit) is rare and left to Redis
            if (decision.allowed() || decision.retryAfter() == null || !limits.get(i).isCacheRefusals()) {
                continue;
            }
            if (!held && stamp(keys) != stamp) {
                return; // a change crossed the call: its refusal may be older than the change
            }
            held = true;
            refusals.built().put(keys.get(i), new Refusal(keys, limits, decisions, sentNanos,
                    sentNanos + decision.retryAfter().toNanos()));
        }
        if (held && stamp(keys) != stamp) {
            // a change came in while this was stored: its forget may have run before the put
            refusals.built().invalidateAll(keys);
        }
    }

    /** Forgets the refusals of keys whose state changed (a refund, a reset), and of calls still in flight on them. */
    void forget(List<String> keys) {
        for (int i = 0; i < keys.size(); i++) {
            invalidations.incrementAndGet(stripe(keys.get(i)));
        }
        // a refusal this change crossed, stored in a cache built after this read, is dropped by remember's stamp checks
        Cache<String, Refusal> refusals = this.refusals.ifBuilt();
        if (refusals != null) {
            refusals.invalidateAll(keys);
        }
    }

    /** Forgets every refusal, and those of every call in flight (limits or switches changed, invalidations missed). */
    void forgetAll() {
        everything.incrementAndGet();
        Cache<String, Refusal> refusals = this.refusals.ifBuilt();
        if (refusals != null) {
            refusals.invalidateAll();
        }
    }

    /** How many refusals are held (tests, metrics). */
    long size() {
        return refusals.size();
    }

    private static int stripe(String key) {
        int hash = key.hashCode();
        return (hash ^ (hash >>> 16)) & (STRIPES - 1);
    }

    /**
     * Whether a refusal held for one of the call's keys answers this call: the same keys and limit values, and a cost
     * at least the refused one for every limit that refused.
     */
    private static boolean refuses(Refusal refusal, List<String> keys, List<LimitDefinition> limits) {
        if (!refusal.keys().equals(keys)) {
            return false;
        }
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition held = refusal.limits().get(i);
            LimitDefinition limit = limits.get(i);
            if (held.getLimit() != limit.getLimit() || held.getWindowMillis() != limit.getWindowMillis()
                    || held.getAlgorithm() != limit.getAlgorithm() || held.getBurst() != limit.getBurst()
                    || !refusal.decisions().get(i).allowed() && limit.getCost() < held.getCost()) {
                return false;
            }
        }
        return true;
    }

    private static RateLimitDecision countedDown(RateLimitDecision decision, LimitDefinition limit, long sentNanos,
            long now) {
        long elapsed = now - sentNanos;
        Duration retryAfter = decision.allowed() || decision.retryAfter() == null ? decision.retryAfter()
                : Duration.ofNanos(Math.max(0, decision.retryAfter().toNanos() - elapsed));
        return new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), decision.allowed(),
                decision.remaining(), Duration.ofNanos(Math.max(0, decision.resetAfter().toNanos() - elapsed)),
                retryAfter, false);
    }
}
