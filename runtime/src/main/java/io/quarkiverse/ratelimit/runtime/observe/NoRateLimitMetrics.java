package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.smallrye.mutiny.Uni;

/** The metrics of an application without quarkus-micrometer: none, at no cost. */
@Singleton
public class NoRateLimitMetrics implements RateLimitMetrics {

    @Override
    public void decided(List<RateLimitDecision> decisions, DecidedBy by, ShadowMask shadow, String tenant) {
    }

    @Override
    public void decided(RateLimitDecision decision, DecidedBy by, boolean shadow, String tenant) {
    }

    @Override
    public void unavailable(List<LimitDefinition> limits, String tenant) {
    }

    @Override
    public void redisCall(RedisOperation operation, RedisOutcome outcome, long nanos) {
    }

    @Override
    public void scriptReloaded() {
    }

    @Override
    public void concurrencyRejected(String limit) {
    }

    @Override
    public <T> Uni<T> timed(RedisOperation operation, Uni<T> call) {
        return call;
    }
}
