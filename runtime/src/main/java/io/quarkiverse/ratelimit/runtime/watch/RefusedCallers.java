package io.quarkiverse.ratelimit.runtime.watch;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.observe.DecidedCall;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObserver;

/**
 * The callers this instance refused since its last report ({@link RefusedMost}): a tenant, or the caller address of a
 * call counted per address, by how many of its calls were refused (a call refused by several limits counts once).
 * Every refusal counts, whatever decided it (Redis, the refusal cache, a fail-closed failure mode); shadow limits and
 * global ones refuse nobody in particular. Bounded: at most {@link #MAX_CALLERS} callers between two reports; a new
 * caller beyond them is not counted until the next report.
 */
@Singleton
public class RefusedCallers implements DecisionObserver {

    /** The most distinct callers kept between two reports (a heartbeat apart). */
    static final int MAX_CALLERS = 2_000;

    private final AtomicReference<Map<String, LongAdder>> counted = new AtomicReference<>(new ConcurrentHashMap<>());
    private volatile int lastCallers;
    private volatile double lastTopShare;

    @Override
    public void decided(DecidedCall call) {
        String caller = null;
        for (int i = 0; i < call.decisions().size() && caller == null; i++) {
            RateLimitDecision decision = call.decisions().get(i);
            if (!decision.allowed() && !call.shadow().contains(i)) {
                caller = caller(call, i);
            }
        }
        if (caller != null) {
            count(caller);
        }
    }

    /**
     * A call refused by a limit that is not a rate limit's decision (a concurrency limit full): its tenant, or the
     * address its tag names.
     *
     * @param tenant the tenant's id, {@code null} when the call counts under a caller address or the anonymous tag
     */
    public void refused(String tenant, String tag) {
        String caller = caller(tenant, tag);
        if (caller != null) {
            count(caller);
        }
    }

    /** The callers counted since the last drain, and none after it; what {@link #lastCallers} tells. */
    Map<String, LongAdder> drain() {
        Map<String, LongAdder> drained = counted.getAndSet(new ConcurrentHashMap<>());
        long total = 0;
        long most = 0;
        for (LongAdder refusals : drained.values()) {
            long sum = refusals.sum();
            total += sum;
            most = Math.max(most, sum);
        }
        lastCallers = drained.size();
        lastTopShare = total == 0 ? 0 : (double) most / total;
        return drained;
    }

    /** The distinct callers refused between the last two drains (a heartbeat). */
    int lastCallers() {
        return lastCallers;
    }

    /** The share of the refusals between the last two drains that the most refused caller took; 0 without any. */
    double lastTopShare() {
        return lastTopShare;
    }

    private void count(String caller) {
        Map<String, LongAdder> callers = counted.get();
        LongAdder refusals = callers.get(caller);
        if (refusals == null) {
            if (callers.size() >= MAX_CALLERS) {
                return; // a flood of new callers within one heartbeat: the first ones counted keep their places
            }
            refusals = callers.computeIfAbsent(caller, ignored -> new LongAdder());
        }
        refusals.increment();
    }

    /**
     * The caller the limit at {@code position} counts: {@code t:<tenant>}, {@code a:<address>} (the address the key
     * names), or {@code null} for a global limit or a call with neither.
     */
    private static String caller(DecidedCall call, int position) {
        Scope scope = call.limits().get(position).getScope();
        if (scope == Scope.GLOBAL) {
            return null;
        }
        return caller(scope == Scope.TENANT ? call.tenant() : null, call.keys().get(position));
    }

    /** {@code t:<tenant>} when there is one, else {@code a:<address>} of the address the key or tag names, or null. */
    private static String caller(String tenant, String keyOrTag) {
        if (tenant != null) {
            return "t:" + tenant;
        }
        String address = address(keyOrTag);
        return address == null ? null : "a:" + address;
    }

    /** The client address a key counts ({@code ~ip:<escaped address>} in it), or {@code null}. */
    static String address(String key) {
        int at = key.indexOf("~ip:");
        if (at < 0) {
            return null;
        }
        int end = at + 4;
        while (end < key.length() && key.charAt(end) != ':' && key.charAt(end) != '}') {
            end++;
        }
        return URLDecoder.decode(key.substring(at + 4, end), StandardCharsets.UTF_8);
    }
}
