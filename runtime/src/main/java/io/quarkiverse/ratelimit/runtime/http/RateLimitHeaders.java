package io.quarkiverse.ratelimit.runtime.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.ws.rs.core.Response;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.config.HeaderStyle;
import io.quarkiverse.ratelimit.runtime.config.HeadersConfig;
import io.quarkiverse.ratelimit.runtime.decide.CallDecision;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

/**
 * Every header the limiter writes, in one place (a new revision of the draft is one change here): {@code Retry-After} on
 * refusals and the IETF httpapi rate-limit headers in structured-field form
 * (<a href="https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/">draft-ietf-httpapi-ratelimit-headers</a>):
 *
 * <pre>
 * RateLimit-Policy: "Search.search";q=5;w=10
 * RateLimit: "Search.search";r=4;t=7
 * </pre>
 *
 * Limit names are validated at build time to contain only characters that need no escaping in a structured string.
 */
public final class RateLimitHeaders {

    public static final String POLICY = "RateLimit-Policy";
    public static final String RATE_LIMIT = "RateLimit";
    public static final String RETRY_AFTER = "Retry-After";

    public static final String X_LIMIT = "X-RateLimit-Limit";
    public static final String X_REMAINING = "X-RateLimit-Remaining";
    public static final String X_RESET = "X-RateLimit-Reset";

    private static final String PENDING = RateLimitHeaders.class.getName() + ".pending";

    /** The most limit names whose {@code RateLimit-Policy} item is kept ({@link #policyItem}). */
    static final int MAX_POLICY_ITEMS = 1_000;
    private static final ConcurrentHashMap<String, PolicyItem> POLICY_ITEMS = new ConcurrentHashMap<>();

    private record PolicyItem(long limit, long windowMillis, String value) {
    }

    /** Whether the limits' state is written, and how ({@code quarkus.rate-limit.headers.*}; set at start-up). */
    private static volatile boolean enabled = true;
    private static volatile HeaderStyle style = HeaderStyle.IETF;

    /** Takes the application's {@code quarkus.rate-limit.headers.*} at start-up. */
    static void configure(HeadersConfig headers) {
        enabled = headers.enabled();
        style = headers.style();
    }

    private RateLimitHeaders() {
    }

    /** The quotas that decided: a tenant's plan or run-time limit shows here, not only the annotation's. */
    public static String policy(List<RateLimitDecision> decisions) {
        if (decisions.size() == 1) {
            return policyItem(decisions.get(0));
        }
        StringBuilder value = new StringBuilder();
        for (RateLimitDecision decision : decisions) {
            if (!value.isEmpty()) {
                value.append(", ");
            }
            value.append(policyItem(decision));
        }
        return value.toString();
    }

    /**
     * The {@code RateLimit-Policy} item of the limit that took {@code decision} ({@code "name";q=100;w=60}), made once and
     * kept by the limit's name: it is the same for every call of the limit while its quota stays, and formatting it was
     * a fifth of the extension's work on a call admitted from a lease ({@code bench/profile.sh http:/http/limited 10 1}).
     * A tenant's plan or run-time limit that gives the name another quota is formatted anew (and kept in its turn); at
     * most {@link #MAX_POLICY_ITEMS} names are kept, so limits named at run time cannot grow it without bound.
     */
    private static String policyItem(RateLimitDecision decision) {
        long windowMillis = decision.window().toMillis();
        PolicyItem item = POLICY_ITEMS.get(decision.limitName());
        if (item != null && item.limit == decision.limit() && item.windowMillis == windowMillis) {
            return item.value;
        }
        String value = '"' + decision.limitName() + "\";q=" + decision.limit() + ";w=" + wholeSecondsUp(decision.window());
        if (item != null || POLICY_ITEMS.size() < MAX_POLICY_ITEMS) {
            POLICY_ITEMS.put(decision.limitName(), new PolicyItem(decision.limit(), windowMillis, value));
        }
        return value;
    }

    public static String rateLimit(List<RateLimitDecision> decisions) {
        StringBuilder value = new StringBuilder();
        for (RateLimitDecision decision : decisions) {
            if (!value.isEmpty()) {
                value.append(", ");
            }
            value.append('"').append(decision.limitName()).append("\";r=").append(decision.remaining())
                    .append(";t=").append(wholeSecondsUp(decision.resetAfter()));
        }
        return value.toString();
    }

    /** Puts {@code Retry-After} on a refusal; returns the seconds it says. */
    public static long retryAfter(Response.ResponseBuilder response, Duration retryAfter) {
        long seconds = retryAfterSeconds(retryAfter);
        response.header(RETRY_AFTER, seconds);
        return seconds;
    }

    /** {@code Retry-After} in whole seconds, rounded up and at least 1: a client told 0 would retry at once. */
    public static long retryAfterSeconds(Duration retryAfter) {
        return Math.max(1, wholeSecondsUp(retryAfter));
    }

    static long wholeSecondsUp(Duration duration) {
        long millis = duration.toMillis();
        return millis / 1000 + (millis % 1000 == 0 ? 0 : 1);
    }

    /** Puts the headers of this call's decisions on a response the caller builds (none when there are none). */
    public static Response.ResponseBuilder add(Response.ResponseBuilder response, List<RateLimitDecision> decisions) {
        if (decisions.isEmpty() || !enabled) {
            return response;
        }
        String[] headers = headers(decisions);
        for (int i = 0; i < headers.length; i += 2) {
            response.header(headers[i], headers[i + 1]);
        }
        return response;
    }

    /** The names and values of the headers of this call's decisions (none when there are none, or none are wanted). */
    static String[] headersOf(List<RateLimitDecision> decisions) {
        return decisions.isEmpty() || !enabled ? new String[0] : headers(decisions);
    }

    /** Sets names and values ({@link #headers}) on a response's headers. */
    private static void set(MultiMap response, String[] headers) {
        for (int i = 0; i < headers.length; i += 2) {
            response.set(headers[i], headers[i + 1]);
        }
    }

    /** The names and values of the headers of {@code decisions}, in the configured style. */
    private static String[] headers(List<RateLimitDecision> decisions) {
        if (style == HeaderStyle.IETF) {
            return new String[] { POLICY, policy(decisions), RATE_LIMIT, rateLimit(decisions) };
        }
        RateLimitDecision least = decisions.get(0);
        for (RateLimitDecision decision : decisions) {
            if (decision.remaining() < least.remaining()) {
                least = decision;
            }
        }
        return new String[] { X_LIMIT, Long.toString(least.limit()), X_REMAINING, Long.toString(least.remaining()),
                X_RESET, Long.toString(wholeSecondsUp(least.resetAfter())) };
    }

    /**
     * Makes the response to {@code request} carry the headers of {@code decision} ({@link #attach(RoutingContext, List)}),
     * and, for a call that settles at the real cost its result tells ({@code costOf}), the state after the settlement:
     * what is left once the estimate was replaced by the real cost.
     */
    public static void attach(RoutingContext request, CallDecision decision) {
        List<RateLimitDecision> shown = decision.shown();
        attach(request, shown);
        if (decision.admitted() && decision.admission().settlesFromResult() && !shown.isEmpty()) {
            decision.admission().onSettled(after -> {
                List<RateLimitDecision> settled = new ArrayList<>(shown.size());
                for (RateLimitDecision reserved : shown) {
                    settled.add(after.getOrDefault(reserved.limitName(), reserved));
                }
                attach(request, settled);
            });
        }
    }

    /**
     * Makes the response to {@code request} carry the headers of this call's decisions, whatever ends the response (the
     * method's result, the 429, another error). Values are computed now; the headers are written just before the
     * response headers go out.
     */
    public static void attach(RoutingContext request, List<RateLimitDecision> decisions) {
        if (decisions.isEmpty() || !enabled) {
            return; // every limit of the call in shadow mode, or no headers wanted: clients see nothing
        }
        boolean first = request.get(PENDING) == null;
        request.put(PENDING, headers(decisions));
        if (first) {
            request.addHeadersEndHandler(ignored -> set(request.response().headers(), request.get(PENDING)));
        }
    }
}
