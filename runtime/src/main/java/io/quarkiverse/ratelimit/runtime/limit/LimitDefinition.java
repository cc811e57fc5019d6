package io.quarkiverse.ratelimit.runtime.limit;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkus.runtime.annotations.RecordableConstructor;

/** One validated {@code @RateLimited}, computed at build time and recorded for run time. */
public final class LimitDefinition {

    private final String name;
    private final long limit;
    private final long windowMillis;
    private final Algorithm algorithm;
    private final FailureMode failureMode;
    private final long cost;
    private final List<String> refundOn;
    private final boolean refundOnServerError;
    private final long burst;
    private final Scope scope;
    private final String policy;
    private final TenantSource tenantSource;
    private final String endpoint;
    private final List<Integer> keyParameters;
    private final Duration window;
    private final boolean cacheRefusals;
    private final long maxWaitMillis;
    private final long lateSlotToleranceMillis;
    private final boolean adaptive;
    private final String costOf;
    private final CalendarPeriod calendarPeriod;
    private final String timeZone;
    private final int anchorDay;
    /** The calendar's boundaries, for a calendar window whose time zone is known; else {@code null}. */
    private final CalendarBoundaries calendarBoundaries;
    /** The limit, window (ms), cost and burst in decimal, made once: every decision sends them to Redis. */
    private final String limitDecimal;
    private final String windowMillisDecimal;
    private final String costDecimal;
    private final String burstDecimal;

    /**
     * A limit of {@code limit} units per {@code windowMillis} named {@code name}, built by name: the other values start
     * at what an annotation leaves them (sliding window counter, cost 1, per tenant, no refunds, refusals cached).
     */
    public static LimitDefinitionBuilder builder(String name, long limit, long windowMillis) {
        return new LimitDefinitionBuilder(name, limit, windowMillis);
    }

    /** A builder holding every value of this limit, to change some. */
    public LimitDefinitionBuilder toBuilder() {
        return new LimitDefinitionBuilder(name, limit, windowMillis).algorithm(algorithm).failureMode(failureMode).cost(cost)
                .refundOn(refundOn).refundOnServerError(refundOnServerError).burst(burst).scope(scope).policy(policy)
                .tenantSource(tenantSource).endpoint(endpoint).keyParameters(keyParameters)
                .cacheRefusals(cacheRefusals).maxWait(maxWaitMillis).lateSlotTolerance(lateSlotToleranceMillis)
                .adaptive(adaptive).costOf(costOf)
                .calendar(calendarPeriod, timeZone, anchorDay);
    }

    /** This limit with another limit value (a run-time limit). */
    public LimitDefinition withLimit(long limit) {
        return toBuilder().limit(limit).build();
    }

    /**
     * This limit as an adaptive limit learned it: {@code limit} per window, its burst no larger (a burst of the
     * configured size would send more at once than the upstream takes).
     */
    public LimitDefinition learned(long limit) {
        return toBuilder().limit(limit).burst(burst > limit ? limit : burst).build();
    }

    /** This limit with another cost (a probe that consumes nothing). */
    public LimitDefinition withCost(long cost) {
        return toBuilder().cost(cost).build();
    }

    /**
     * @param burst units allowed at once for the token bucket and GCRA; 0 for {@code limit}
     * @param policy the named policy whose configuration applies, {@code null} for none
     * @param endpoint the key segment of the HTTP method and path template when counted per endpoint, else {@code null}
     * @param keyParameters the positions of the method parameters whose values split the counter
     * @param cacheRefusals whether this instance may repeat a refusal of Redis locally until its retry time
     * @param maxWaitMillis how long a call may wait for a later slot; 0 when a refused call does not wait
     * @param lateSlotToleranceMillis how late a waiting call may still go at its slot; -1 for
     *        {@code quarkus.rate-limit.late-slot-tolerance}
     * @param adaptive whether the limit learns the upstream's real quota from its 429 answers (a REST Client's limit)
     * @param costOf the {@code CostOf} bean class that reads a call's real cost from its result, its cost being the
     *        estimate reserved; {@code null} when the cost is the call's
     * @param calendarPeriod the period of a {@link Algorithm#CALENDAR_WINDOW}, else {@link CalendarPeriod#NONE}
     * @param timeZone the calendar period's time zone; {@code null} for the configured one (until start-up sets it)
     * @param anchorDay the day a week (1 Monday to 7) or a month (1 to 31) starts on
     * @see #builder(String, long, long) how code builds one; this constructor is for the build-time recorder
     */
    @RecordableConstructor
    public LimitDefinition(String name, long limit, long windowMillis, Algorithm algorithm, FailureMode failureMode,
            long cost, List<String> refundOn, boolean refundOnServerError, long burst, Scope scope, String policy,
            TenantSource tenantSource, String endpoint, List<Integer> keyParameters, boolean cacheRefusals,
            long maxWaitMillis, long lateSlotToleranceMillis, boolean adaptive, String costOf,
            CalendarPeriod calendarPeriod, String timeZone, int anchorDay) {
        this.costOf = costOf;
        this.lateSlotToleranceMillis = lateSlotToleranceMillis;
        this.adaptive = adaptive;
        this.calendarPeriod = calendarPeriod;
        this.timeZone = timeZone;
        this.anchorDay = anchorDay;
        this.calendarBoundaries = algorithm == Algorithm.CALENDAR_WINDOW && timeZone != null
                ? CalendarBoundaries.of(calendarPeriod, timeZone, anchorDay)
                : null;
        this.cacheRefusals = cacheRefusals;
        this.maxWaitMillis = maxWaitMillis;
        this.policy = policy;
        this.tenantSource = tenantSource;
        this.endpoint = endpoint;
        this.keyParameters = List.copyOf(keyParameters);
        this.name = name;
        this.limit = limit;
        this.windowMillis = windowMillis;
        this.algorithm = algorithm;
        this.failureMode = failureMode;
        this.cost = cost;
        this.refundOn = List.copyOf(refundOn);
        this.refundOnServerError = refundOnServerError;
        this.burst = burst;
        this.scope = scope;
        this.window = Duration.ofMillis(windowMillis);
        this.limitDecimal = Long.toString(limit);
        this.windowMillisDecimal = Long.toString(windowMillis);
        this.costDecimal = Long.toString(cost);
        this.burstDecimal = Long.toString(burst);
    }

    /** How late a waiting call may still go at its slot; -1: {@code quarkus.rate-limit.late-slot-tolerance}'s. */
    public long getLateSlotToleranceMillis() {
        return lateSlotToleranceMillis;
    }

    /** Whether the limit learns its upstream's real quota from the upstream's 429s ({@code AdaptiveLimits}). */
    public boolean isAdaptive() {
        return adaptive;
    }

    /** The {@code CostOf} class reading a call's real cost from its result (the cost: an estimate); or null. */
    public String getCostOf() {
        return costOf;
    }

    /** {@link #getLimit()} in decimal. */
    public String limitDecimal() {
        return limitDecimal;
    }

    /** {@link #getWindowMillis()} in decimal. */
    public String windowMillisDecimal() {
        return windowMillisDecimal;
    }

    /** {@link #getCost()} in decimal. */
    public String costDecimal() {
        return costDecimal;
    }

    /** {@link #getBurst()} in decimal. */
    public String burstDecimal() {
        return burstDecimal;
    }

    /** Whether this instance may repeat a refusal of Redis locally until its retry time. */
    public boolean isCacheRefusals() {
        return cacheRefusals;
    }

    /** How long a call may wait for a later slot (a reservation); 0 when a refused call does not wait. */
    public long getMaxWaitMillis() {
        return maxWaitMillis;
    }

    /** The period of a {@link Algorithm#CALENDAR_WINDOW}; {@link CalendarPeriod#NONE} for the other algorithms. */
    public CalendarPeriod getCalendarPeriod() {
        return calendarPeriod;
    }

    /** The calendar period's time zone; {@code null} for the configured one (start-up sets it). */
    public String getTimeZone() {
        return timeZone;
    }

    /** Where the periods of this calendar window start; {@code null} for another algorithm or an unknown zone yet. */
    public CalendarBoundaries calendarBoundaries() {
        return calendarBoundaries;
    }

    /** The day a calendar week (1 Monday to 7 Sunday) or month (1 to 31) starts on. */
    public int getAnchorDay() {
        return anchorDay;
    }

    /** The named policy whose configuration applies, {@code null} for none. */
    public String getPolicy() {
        return policy;
    }

    /** As declared: {@link TenantSource#DEFAULT} means the configured one. */
    public TenantSource getTenantSource() {
        return tenantSource;
    }

    /** The key segment naming the HTTP method and path template, {@code null} unless counted per endpoint. */
    public String getEndpoint() {
        return endpoint;
    }

    /** Positions of the method parameters whose values split the counter. */
    public List<Integer> getKeyParameters() {
        return keyParameters;
    }

    /** The field of this limit in a tenant's run-time limits: its policy, or its name when it has none. */
    public String overrideName() {
        return policy != null ? policy : name;
    }

    public String getName() {
        return name;
    }

    public long getLimit() {
        return limit;
    }

    public long getWindowMillis() {
        return windowMillis;
    }

    public Algorithm getAlgorithm() {
        return algorithm;
    }

    /** As declared: {@link FailureMode#DEFAULT} means the configured one. */
    public FailureMode getFailureMode() {
        return failureMode;
    }

    public Duration window() {
        return window;
    }

    /** Binary names of the exception types that refund a failed call. */
    public List<String> getRefundOn() {
        return refundOn;
    }

    public boolean isRefundOnServerError() {
        return refundOnServerError;
    }

    /** Whether {@code failure} is, or extends, one of the {@link #getRefundOn()} types (by name: no reflection). */
    public boolean refundsOn(Throwable failure) {
        if (refundOn.isEmpty()) {
            return false;
        }
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            if (refundOn.contains(type.getName())) {
                return true;
            }
        }
        return false;
    }

    public Scope getScope() {
        return scope;
    }

    /** As declared: 0 means the limit. */
    public long getBurst() {
        return burst;
    }

    /** Units one call consumes. */
    public long getCost() {
        return cost;
    }

    @Override
    public String toString() {
        String counted = calendarPeriod == CalendarPeriod.NONE ? limit + " per " + window
                : limit + " a " + calendarPeriod.name().toLowerCase(Locale.ROOT) + " in "
                        + (timeZone == null ? "the configured time zone" : timeZone);
        return name + " (" + counted + ", " + algorithm + (burst == 0 ? "" : ", burst " + burst)
                + (scope == Scope.TENANT ? "" : ", " + scope) + ")";
    }
}
