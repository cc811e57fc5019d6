package io.quarkiverse.ratelimit.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/**
 * Summaries by the stub model ({@link ChatModel}), 5,000 answer words an hour per tenant: each call reserves 256 words
 * (the longest answer it asks for) and is settled at the words its answer has, read by {@link AnswerWords}.
 */
// tag::summary[]
@Path("/summaries")
public class SummaryResource {

    @Inject
    ChatModel model;

    @POST
    @RateLimited(name = "summary-words", limit = 5000, window = "1h", cost = 256, costOf = AnswerWords.class)
    public Uni<String> summarize(String text) {
        return model.complete("summarize in 50 words: " + text, 256).map(ChatModel.Answer::text);
    }

    /** The words of an answer: what a summary really cost. */
    public static class AnswerWords implements CostOf<String> {
        @Override
        public long cost(String answer) {
            return ChatModel.tokens(answer);
        }
    }
}
// end::summary[]
