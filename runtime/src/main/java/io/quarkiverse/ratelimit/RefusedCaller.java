package io.quarkiverse.ratelimit;

/**
 * One of the callers refused most ({@link ReactiveRateLimitAdmin#refusedMost}): a tenant, or the caller address of
 * calls counted per address, and how many of its calls were refused, fleet-wide.
 *
 * @param subject {@link RateLimitSubject#tenant} or {@link RateLimitSubject#clientAddress}
 * @param refusals the calls refused over the period asked for: never fewer than were, and more by at most the least
 *        count a minute's tally held when the caller entered it (a tally keeps the most refused callers only)
 */
public record RefusedCaller(RateLimitSubject subject, long refusals) {
}
