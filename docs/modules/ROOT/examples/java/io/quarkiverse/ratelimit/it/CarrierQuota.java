package io.quarkiverse.ratelimit.it;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;

/**
 * The carrier gateway's outgoing calls: a carrier grants each account 5 requests per second, 1,000 per minute and
 * 50,000 per day, counted across every gateway instance. A call waits up to 2 s for its turn instead of failing.
 */
// tag::quota[]
@ApplicationScoped
public class CarrierQuota {

    static final List<RateLimit> CARRIER_ACCOUNT = List.of(
            RateLimit.of("carrier-second", 5, Duration.ofSeconds(1)).algorithm(Algorithm.GCRA)
                    .maxWait(Duration.ofSeconds(2)),
            RateLimit.of("carrier-minute", 1_000, Duration.ofMinutes(1)).algorithm(Algorithm.TOKEN_BUCKET),
            RateLimit.of("carrier-day", 50_000, Duration.ofDays(1)).algorithm(Algorithm.TOKEN_BUCKET));

    @Inject
    RateLimiter limiter;

    /** Sends {@code call} in the account's turn, or fails at once when its turn is more than 2 s away. */
    public <T> Uni<T> send(String account, Supplier<Uni<T>> call) {
        return limiter.acquireAll(CARRIER_ACCOUNT, account).chain(decisions -> {
            if (decisions.stream().allMatch(RateLimitDecision::allowed)) {
                return call.get();
            }
            return Uni.createFrom().failure(new RateLimitExceededException(decisions));
        });
    }
}
// end::quota[]
