package io.quarkiverse.ratelimit.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Multi;
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

    // end::summary[]
    // tag::stream[]
    /** The summary word by word, as a model streams it: settled when the stream ends, at the words it sent. */
    @POST
    @Path("stream")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RateLimited(name = "summary-words", limit = 5000, window = "1h", cost = 256, costOf = AnswerWords.class)
    public Multi<String> stream(String text) {
        return model.complete("summarize in 50 words: " + text, 256)
                .onItem().transformToMulti(answer -> Multi.createFrom().items(answer.text().split(" ")));
    }
    // end::stream[]
    // tag::summary[]

    /** The words of an answer, or of a part of it: what a summary really cost. */
    public static class AnswerWords implements CostOf<String> {
        @Override
        public long cost(String answer) {
            return ChatModel.tokens(answer);
        }
    }
}
// end::summary[]
