package io.quarkiverse.ratelimit.it;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.Charge;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.smallrye.mutiny.Uni;

/**
 * An LLM chat endpoint with token budgets per tenant: the tokens an answer uses are known only when it is written, so
 * each call reserves an estimate of every token budget and one request, then settles the real count ({@link ChatModel},
 * a stub of a model that counts tokens as an OpenAI-compatible API reports {@code usage.total_tokens}).
 */
// tag::chat[]
@Path("/chat")
public class ChatResource {

    static final RateLimit TOKENS_PER_MINUTE = RateLimit.of("chat-tokens-minute", 2000, Duration.ofMinutes(1));
    static final RateLimit TOKENS_PER_MONTH = RateLimit.of("chat-tokens-month", 1_000_000, CalendarPeriod.MONTH,
            ZoneOffset.UTC);
    static final RateLimit REQUESTS_PER_MINUTE = RateLimit.of("chat-requests-minute", 20, Duration.ofMinutes(1));

    /** What a call is expected to use: its prompt's tokens and the longest answer it asks for. */
    static final long MAX_ANSWER_TOKENS = 256;

    @Inject
    RateLimiter limiter;

    @Inject
    ChatModel model;

    @POST
    public Uni<Response> chat(@HeaderParam("X-Tenant-Id") String tenant, String prompt) {
        if (tenant == null || tenant.isBlank()) {
            return Uni.createFrom().item(Response.status(400).entity("X-Tenant-Id names the tenant").build());
        }
        long estimate = ChatModel.tokens(prompt) + MAX_ANSWER_TOKENS;
        List<Charge> charges = List.of(Charge.estimated(TOKENS_PER_MINUTE, estimate),
                Charge.estimated(TOKENS_PER_MONTH, estimate), Charge.fixed(REQUESTS_PER_MINUTE, 1));
        return limiter.reserve(charges, tenant).flatMap(reservation -> {
            if (!reservation.admitted()) {
                return Uni.createFrom().item(tooManyTokens(reservation.decisions()));
            }
            return model.complete(prompt, MAX_ANSWER_TOKENS)
                    .onFailure().call(failure -> reservation.cancel()) // no answer: nothing used
                    .flatMap(answer -> reservation.settle(answer.totalTokens())
                            .map(left -> Response.ok(answer.text())
                                    .header("X-Tokens-Used", answer.totalTokens())
                                    .header("X-Tokens-Left-This-Minute", left.get(0).remaining())
                                    .build()));
        });
    }

    private static Response tooManyTokens(List<RateLimitDecision> decisions) {
        long retryAfter = decisions.stream().filter(decision -> !decision.allowed())
                .map(RateLimitDecision::retryAfter).filter(Objects::nonNull)
                .mapToLong(Duration::toSeconds).max().orElse(1);
        return Response.status(429).header("Retry-After", Math.max(1, retryAfter)).build();
    }
}
// end::chat[]
