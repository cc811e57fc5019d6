package io.quarkiverse.ratelimit.deployment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;

/** Many decisions of one tenant in flight at once, through the programmatic API. */
public final class DecisionsInFlight {

    private DecisionsInFlight() {
    }

    /** {@code calls} decisions sent before any is awaited; each decision, in the order sent. */
    public static List<RateLimitDecision> decide(RateLimiter limiter, RateLimit limit, String tenant, int calls) {
        List<Uni<RateLimitDecision>> inFlight = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            inFlight.add(limiter.tryAcquire(limit, tenant));
        }
        return Uni.join().all(inFlight).andFailFast().await().atMost(Duration.ofSeconds(30));
    }
}
