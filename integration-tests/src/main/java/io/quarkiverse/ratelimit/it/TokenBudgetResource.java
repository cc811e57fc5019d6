package io.quarkiverse.ratelimit.it;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;

/**
 * A model's token budget, 1,000 tokens a 10 s window per tenant, for the tests of reserve-then-settle on a fleet: a
 * call reserves {@code estimate} tokens, its answer takes {@code answer-ms} and really costs {@code cost} tokens, which
 * the call settles. Each answer says when its reservation was decided and when its settlement began (wall clock, ms),
 * so a test can tell which decisions saw which settlements. A fixed window, so that what the next window starts with is
 * exact. Not part of a real application.
 */
@Path("/token-budget")
public class TokenBudgetResource {

    static final RateLimit BUDGET = RateLimit.of("token-budget", 1000, Duration.ofSeconds(10))
            .algorithm(Algorithm.FIXED_WINDOW);

    @Inject
    RateLimiter limiter;

    @POST
    public Uni<Response> call(@HeaderParam("X-Tenant-Id") String tenant, @QueryParam("estimate") long estimate,
            @QueryParam("cost") long cost, @QueryParam("answer-ms") long answerMillis) {
        return limiter.reserve(BUDGET, tenant, estimate).flatMap(reservation -> {
            long decidedAt = System.currentTimeMillis();
            if (!reservation.admitted()) {
                return Uni.createFrom().item(Response.status(429).header("X-Decided-At", decidedAt).build());
            }
            Uni<Void> answer = Uni.createFrom().voidItem();
            return (answerMillis > 0 ? answer.onItem().delayIt().by(Duration.ofMillis(answerMillis)) : answer)
                    .chain(() -> {
                        long settledAt = System.currentTimeMillis();
                        return reservation.settle(cost).map(after -> Response.ok(cost)
                                .header("X-Decided-At", decidedAt).header("X-Settled-At", settledAt).build());
                    });
        });
    }

    /** The tenant's budget now, consuming nothing: what is left, and whether it is in debt (refused at cost 0). */
    @GET
    @Path("status")
    public Uni<String> status(@HeaderParam("X-Tenant-Id") String tenant) {
        return limiter.status(BUDGET, tenant).map(TokenBudgetResource::describe);
    }

    private static String describe(RateLimitDecision decision) {
        return "remaining=" + decision.remaining() + " inDebt=" + !decision.allowed() + " resetMs="
                + decision.resetAfter().toMillis();
    }
}
