package io.quarkiverse.ratelimit.runtime.admin;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.ReactiveRateLimitAdmin;
import io.quarkiverse.ratelimit.RefusedCaller;

/** The {@link RateLimitAdmin} bean: each operation of {@link ReactiveRateLimitAdmin}, awaited. */
@Singleton
public class BlockingRateLimitAdmin implements RateLimitAdmin {

    private final ReactiveRateLimitAdmin reactive;

    BlockingRateLimitAdmin(ReactiveRateLimitAdmin reactive) {
        this.reactive = reactive;
    }

    @Override
    public ReactiveRateLimitAdmin reactive() {
        return reactive;
    }

    @Override
    public void setLimit(String tenant, String policy, long limit) {
        reactive.setLimit(tenant, policy, limit).await().atMost(TIMEOUT);
    }

    @Override
    public void removeLimit(String tenant, String policy) {
        reactive.removeLimit(tenant, policy).await().atMost(TIMEOUT);
    }

    @Override
    public Map<String, Long> limits(String tenant) {
        return reactive.limits(tenant).await().atMost(TIMEOUT);
    }

    @Override
    public List<RateLimitDecision> status(RateLimitSubject subject, String policy) {
        return reactive.status(subject, policy).await().atMost(TIMEOUT);
    }

    @Override
    public Map<String, Long> leased(RateLimitSubject subject, String policy) {
        return reactive.leased(subject, policy).await().atMost(TIMEOUT);
    }

    @Override
    public List<RefusedCaller> refusedMost(Duration period, int top) {
        return reactive.refusedMost(period, top).await().atMost(TIMEOUT);
    }

    @Override
    public int reset(RateLimitSubject subject, String policy) {
        return reactive.reset(subject, policy).await().atMost(TIMEOUT);
    }

    @Override
    public void block(RateLimitSubject subject) {
        reactive.block(subject).await().atMost(TIMEOUT);
    }

    @Override
    public void unblock(RateLimitSubject subject) {
        reactive.unblock(subject).await().atMost(TIMEOUT);
    }

    @Override
    public List<String> policies() {
        return reactive.policies();
    }

    @Override
    public void setSwitches(String policy, Mode mode, Integer rolloutPercentage, FailureMode failureMode) {
        reactive.setSwitches(policy, mode, rolloutPercentage, failureMode).await().atMost(TIMEOUT);
    }

    @Override
    public void clearSwitches(String policy) {
        reactive.clearSwitches(policy).await().atMost(TIMEOUT);
    }

    @Override
    public Map<String, Map<String, Object>> switches() {
        return reactive.switches();
    }
}
