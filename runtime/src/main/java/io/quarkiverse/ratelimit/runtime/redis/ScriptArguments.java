package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;

/**
 * The {@code ARGV} layout of the scripts: the Java half of the contract whose Lua half is {@code lua/prelude.lua}
 * ({@code limit_args}). Nothing else writes or reads script arguments; a test runs the two halves against each other.
 */
public final class ScriptArguments {

    /** {@code ARGV[1]} that makes a script read Redis {@code TIME}; tests pass microseconds instead. */
    public static final String REDIS_CLOCK = "";

    /**
     * Values per limit after the clock: algorithm module, limit, window in ms (a calendar window's period boundaries
     * instead), cost, burst (0: the limit).
     */
    public static final int PER_LIMIT = 5;

    private ScriptArguments() {
    }

    /** {@code rate_limit.lua} and {@code refund.lua}: the clock, then each limit's values. */
    public static List<String> limits(String clock, List<LimitDefinition> limits) {
        List<String> args = new ArrayList<>(1 + PER_LIMIT * limits.size());
        args.add(clock);
        for (int i = 0; i < limits.size(); i++) {
            LimitDefinition limit = limits.get(i);
            args.add(RateLimitScripts.moduleName(limit.getAlgorithm()));
            args.add(limit.limitDecimal());
            args.add(limit.getAlgorithm() == Algorithm.CALENDAR_WINDOW ? calendarBoundaries(clock, limit)
                    : limit.windowMillisDecimal());
            args.add(limit.costDecimal());
            args.add(limit.burstDecimal());
        }
        return args;
    }

    /**
     * A calendar window's periods around the clock the script will read: this instance's (Redis's own is within a
     * period of it), or the one a test gives.
     */
    private static String calendarBoundaries(String clock, LimitDefinition limit) {
        long nowMillis = clock.equals(REDIS_CLOCK) ? System.currentTimeMillis() : Long.parseLong(clock) / 1000;
        return limit.calendarBoundaries().around(nowMillis);
    }

    /**
     * {@code rate_limit.lua}: the clock, each limit's values, then the shadow mask (one character per limit, {@code 1}
     * for a limit in shadow mode; none when every limit is enforced), then how long the call may wait for a later slot
     * in ms (none when it may not; the mask is then empty if there is none).
     */
    public static List<String> limits(String clock, List<LimitDefinition> limits, ShadowMask shadow) {
        List<String> args = limits(clock, limits);
        long maxWait = WaitingCalls.maxWaitMillis(limits);
        if (!shadow.isEmpty()) {
            char[] mask = new char[limits.size()];
            for (int i = 0; i < mask.length; i++) {
                mask[i] = shadow.contains(i) ? '1' : '0';
            }
            args.add(new String(mask));
        } else if (maxWait > 0) {
            args.add("");
        }
        if (maxWait > 0) {
            args.add(Long.toString(maxWait));
        }
        return args;
    }

    /** {@code refund.lua}: the clock, each limit's values (its cost: what to give back), then the channel to announce on. */
    public static List<String> refund(String clock, List<LimitDefinition> limits, String channel) {
        List<String> args = limits(clock, limits);
        args.add(channel);
        return args;
    }

    /**
     * {@code settle.lua}: the clock, each limit's values (its cost: the difference to settle, signed), then the channel
     * to announce a refund on.
     */
    public static List<String> settle(String clock, List<LimitDefinition> limits, String channel) {
        return refund(clock, limits, channel);
    }

    /** {@code pause.lua}: the clock, each limit's values, how long to pause in ms, then the channel to announce on. */
    public static List<String> pause(String clock, List<LimitDefinition> limits, long pauseMillis, String channel) {
        List<String> args = limits(clock, limits);
        args.add(Long.toString(pauseMillis));
        args.add(channel);
        return args;
    }

    /**
     * {@code lua/lease.lua}, taking a lease: the call decided, and a slice of what is left leased with it as
     * {@code leaseId} (at most {@code wanted}, none below {@code minSlice}), after lease {@code previousId} gave back
     * {@code unused}.
     */
    public static List<String> takeLease(String clock, LimitDefinition limit, String instance, String previousId,
            long unused, String leaseId, long wanted, long minSlice, long share, long maxLeaseMillis, String channel) {
        List<String> args = lease(clock, limit, "take", instance, previousId, unused);
        args.add(leaseId);
        args.add(Long.toString(wanted));
        args.add(Long.toString(minSlice));
        args.add(Long.toString(share));
        args.add(Long.toString(maxLeaseMillis));
        args.add(channel);
        return args;
    }

    /** {@code lua/lease.lua}, giving back what lease {@code leaseId} of this instance left unused. */
    public static List<String> returnLease(String clock, LimitDefinition limit, String instance, String leaseId,
            long unused, String channel) {
        return withoutLease(lease(clock, limit, "return", instance, leaseId, unused), channel);
    }

    /**
     * {@code lua/lease.lua}, recalling what the other instances' leases (live, or ended less than
     * {@code maxLeaseMillis} ago) can still give back of the limit.
     */
    public static List<String> recallLeases(String clock, LimitDefinition limit, String instance, long maxLeaseMillis,
            String channel) {
        List<String> args = lease(clock, limit, "recall", instance, "", 0);
        args.addAll(List.of("", "0", "1", "1", Long.toString(maxLeaseMillis), channel));
        return args;
    }

    /** An operation that takes no lease: no new lease's id, slice, smallest slice, share or duration; the channel. */
    private static List<String> withoutLease(List<String> args, String channel) {
        args.addAll(List.of("", "0", "1", "1", "0", channel));
        return args;
    }

    /** The clock, the limit's values, the operation, the instance's id, and a lease to give back with its unused units. */
    private static List<String> lease(String clock, LimitDefinition limit, String operation, String instance,
            String leaseId, long unused) {
        List<String> args = limits(clock, List.of(limit));
        args.add(operation);
        args.add(instance);
        args.add(leaseId);
        args.add(Long.toString(unused));
        return args;
    }

    /** {@code reset.lua}: the channel to announce on. */
    public static List<String> reset(String channel) {
        return List.of(channel);
    }

    /** {@code leased.lua}: the clock. */
    public static List<String> leased(String clock) {
        return List.of(clock);
    }

    /** {@code cancel_lease.lua}: the lease id and the lease in ms. */
    public static List<String> cancelLease(ConcurrencyDefinition limit, String leaseId) {
        return List.of(leaseId, Long.toString(limit.getLeaseMillis()));
    }

    /** {@code concurrency.lua}: the clock, the limit, the lease in ms and the lease id. */
    public static List<String> concurrency(String clock, ConcurrencyDefinition limit, String leaseId) {
        return List.of(clock, Integer.toString(limit.getLimit()), Long.toString(limit.getLeaseMillis()), leaseId);
    }
}
