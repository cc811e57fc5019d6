package io.quarkiverse.ratelimit;

/**
 * The real cost of a call of a {@link RateLimited#costOf()} method, read from what it returned (the tokens an LLM
 * answer reports it used, the bytes of a download): the method's {@link RateLimited#cost()} is reserved before it runs
 * as an estimate, and settled at this cost when it returns ({@link Reservation#settle}). A CDI bean ({@code @Singleton}
 * when it declares no scope); called once per call (per item of a stream), on the thread the method's result arrives
 * on: quick, no blocking.
 *
 * <pre>
 * public class AnswerTokens implements CostOf&lt;ChatAnswer&gt; {
 *     public long cost(ChatAnswer answer) {
 *         return answer.usage().totalTokens();
 *     }
 * }
 * </pre>
 *
 * @param <T> what the method returns: its plain result, or the item of its {@code Uni} or {@code CompletionStage}; for a
 *        {@code Multi}, each item (the stream's cost is their sum)
 */
public interface CostOf<T> {

    /** The call's real cost, 0 or more. */
    long cost(T result);
}
