package io.quarkiverse.ratelimit;

/** Thrown instead of invoking a {@link ConcurrencyLimited} method whose tenant already has its limit in flight. */
public class ConcurrencyLimitExceededException extends RuntimeException {

    private final String limitName;
    private final int limit;

    public ConcurrencyLimitExceededException(String limitName, int limit) {
        super("Concurrency limit '" + limitName + "' of " + limit + " calls in flight reached", null, false, false);
        this.limitName = limitName;
        this.limit = limit;
    }

    public String limitName() {
        return limitName;
    }

    public int limit() {
        return limit;
    }
}
