package io.quarkiverse.ratelimit.runtime.http;

import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.ratelimit.RateLimitDecision;

/**
 * The {@code RateLimit-Policy} item of each limit ({@code "name";q=100;w=60}), made once and kept by the limit's name:
 * it is the same for every call of the limit while its quota stays, and formatting it was a fifth of the extension's
 * work on a call admitted from a lease ({@code bench/profile.sh http:/http/limited 10 1}). A tenant's plan or run-time
 * limit that gives the name another quota is formatted anew (and kept in its turn); at most {@link #MAX_KEPT} names are
 * kept, so limits named at run time cannot grow it without bound.
 */
final class PolicyItems {

    static final int MAX_KEPT = 1_000;

    private static final ConcurrentHashMap<String, Item> ITEMS = new ConcurrentHashMap<>();

    private record Item(long limit, long windowMillis, String value) {
    }

    private PolicyItems() {
    }

    /** The item of the limit that took {@code decision}. */
    static String of(RateLimitDecision decision) {
        long windowMillis = decision.window().toMillis();
        Item item = ITEMS.get(decision.limitName());
        if (item != null && item.limit == decision.limit() && item.windowMillis == windowMillis) {
            return item.value;
        }
        String value = '"' + decision.limitName() + "\";q=" + decision.limit() + ";w="
                + RateLimitHeaders.wholeSecondsUp(decision.window());
        if (item != null || ITEMS.size() < MAX_KEPT) {
            ITEMS.put(decision.limitName(), new Item(decision.limit(), windowMillis, value));
        }
        return value;
    }
}
