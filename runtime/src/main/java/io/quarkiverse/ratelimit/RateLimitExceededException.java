package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Thrown instead of invoking a {@link RateLimited} method when a limit refuses the call. Quarkus REST answers it with
 * {@code 429 Too Many Requests}.
 */
public class RateLimitExceededException extends RuntimeException {

    private final transient List<RateLimitDecision> decisions;

    public RateLimitExceededException(List<RateLimitDecision> decisions) {
        super(null, null, false, false);
        this.decisions = List.copyOf(Objects.requireNonNull(decisions, "decisions"));
    }

    /** Written when asked for: a refusal answered with a response never needs it. */
    @Override
    public String getMessage() {
        return message(decisions);
    }

    /** Every decision taken for the call, allowed or not, in declaration order. */
    public List<RateLimitDecision> decisions() {
        return decisions;
    }

    /** The decisions that refused the call (at least one). */
    public List<RateLimitDecision> violations() {
        int refused = 0;
        for (RateLimitDecision decision : decisions) {
            refused += decision.allowed() ? 0 : 1;
        }
        if (refused == decisions.size()) {
            return decisions; // the usual refusal: every limit of the call refused it (most calls have one)
        }
        List<RateLimitDecision> violations = new ArrayList<>(refused);
        for (RateLimitDecision decision : decisions) {
            if (!decision.allowed()) {
                violations.add(decision);
            }
        }
        return List.copyOf(violations);
    }

    /** The longest wait any violated limit asks for; {@code null} when a limit can never admit the call. */
    public Duration retryAfter() {
        Duration longest = Duration.ZERO;
        for (RateLimitDecision violation : violations()) {
            if (violation.retryAfter() == null) {
                return null;
            }
            if (violation.retryAfter().compareTo(longest) > 0) {
                longest = violation.retryAfter();
            }
        }
        return longest;
    }

    private static String message(List<RateLimitDecision> decisions) {
        StringBuilder message = new StringBuilder("Rate limit exceeded:");
        for (RateLimitDecision decision : decisions) {
            if (!decision.allowed()) {
                message.append(' ').append(decision.limitName()).append(" (").append(decision.limit())
                        .append(" per ").append(decision.window()).append(')');
            }
        }
        return message.toString();
    }
}
