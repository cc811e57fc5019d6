package io.quarkiverse.ratelimit.runtime.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.vertx.redis.client.Response;

/**
 * The replies of the scripts, decoded: the Java half of the return contracts at the top of {@code lua/rate_limit.lua}
 * and {@code lua/concurrency.lua}. Nothing else reads a script's reply.
 */
public final class ScriptReplies {

    /** A concurrency lease's reply: whether it was acquired, how many are held, and when a slot frees at the latest. */
    public record Lease(boolean acquired, long inFlight, Duration retryAfter) {
    }

    /** How many integers {@code rate_limit.lua} answers for each limit of a call. */
    static final int VALUES_PER_LIMIT = 4;

    /**
     * A compact reply of {@code lua/rate_limit_batch.lua} (one negative integer for a call of one limit admitted at
     * once): {@code -1 - (remaining + reset_ms * COMPACT_REMAINING)}.
     */
    static final long COMPACT_REMAINING = 1L << 20;

    private ScriptReplies() {
    }

    /**
     * {@code rate_limit.lua}: four integers per limit, allowed, remaining, reset_ms, retry_after_ms (-1: never; an
     * admitted call's wait); or a batch's compact reply of a call of one limit ({@link #COMPACT_REMAINING}).
     */
    public static List<RateLimitDecision> decisions(List<LimitDefinition> limits, Response reply) {
        long first = reply.get(0).toLong();
        if (first < 0) {
            // a batch's compact reply of a call of one limit admitted at once
            long packed = -1 - first;
            LimitDefinition limit = limits.get(0);
            return List.of(new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), true,
                    packed % COMPACT_REMAINING, Duration.ofMillis(packed / COMPACT_REMAINING), Duration.ZERO, false,
                    Duration.ZERO));
        }
        List<RateLimitDecision> decisions = new ArrayList<>(limits.size());
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            int at = VALUES_PER_LIMIT * i;
            boolean allowed = reply.get(at).toLong() == 1;
            long retryAfterMillis = reply.get(at + 3).toLong();
            // an admitted call's retry time is its wait for a reserved slot (0: none)
            Duration wait = allowed && retryAfterMillis > 0 ? Duration.ofMillis(retryAfterMillis) : Duration.ZERO;
            decisions.add(new RateLimitDecision(limit.getName(), limit.getLimit(), limit.window(), allowed,
                    Math.max(0, reply.get(at + 1).toLong()), Duration.ofMillis(reply.get(at + 2).toLong()),
                    allowed ? Duration.ZERO : retryAfterMillis < 0 ? null : Duration.ofMillis(retryAfterMillis), false,
                    wait));
        }
        return decisions;
    }

    /**
     * {@code rate_limit.lua}'s clock of the decision in microseconds, the instant a waiting call's wait counts from;
     * -1 for a call that does not wait (its reply says no more than its limits' values).
     */
    public static long decisionClockMicros(List<LimitDefinition> limits, Response reply) {
        int limitsValues = VALUES_PER_LIMIT * limits.size();
        return reply.size() > limitsValues ? reply.get(limitsValues).toLong() : -1;
    }

    /**
     * How many values of {@code replies}, from {@code at}, are the reply of one decision of {@code limits} limits: four
     * per limit, and the decision's clock after them when a limit admitted the call for a later slot; one for a
     * compact reply ({@link #COMPACT_REMAINING}).
     */
    static int replySize(Response replies, int at, int limits) {
        if (limits == 1 && at < replies.size() && replies.get(at).toLong() < 0) {
            return 1; // compact
        }
        int size = VALUES_PER_LIMIT * limits;
        for (int i = 0; i < limits && at + size <= replies.size(); i++) {
            int limit = at + VALUES_PER_LIMIT * i;
            if (replies.get(limit).toLong() == 1 && replies.get(limit + 3).toLong() > 0) {
                return size + 1;
            }
        }
        return size;
    }

    /** {@code concurrency.lua}: acquired (1 | 0), in_flight, retry_after_ms. */
    public static Lease lease(Response reply) {
        return new Lease(reply.get(0).toLong() == 1, reply.get(1).toLong(), Duration.ofMillis(reply.get(2).toLong()));
    }
}
