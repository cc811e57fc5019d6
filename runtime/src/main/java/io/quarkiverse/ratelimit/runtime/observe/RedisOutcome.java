package io.quarkiverse.ratelimit.runtime.observe;

import io.smallrye.mutiny.TimeoutException;

/** How a call to Redis ended: the {@code outcome} tag of {@code rate_limit.redis.duration}. */
public enum RedisOutcome {
    SUCCESS("success"),
    /** Redis answered with an error, or the connection failed. */
    ERROR("error"),
    /** No answer within the bound ({@code decision-timeout}); the failure mode decided. */
    TIMEOUT("timeout");

    private final String tag;

    RedisOutcome(String tag) {
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }

    public static RedisOutcome of(Throwable failure) {
        if (failure == null) {
            return SUCCESS;
        }
        return failure instanceof TimeoutException || failure instanceof java.util.concurrent.TimeoutException
                ? TIMEOUT
                : ERROR;
    }
}
