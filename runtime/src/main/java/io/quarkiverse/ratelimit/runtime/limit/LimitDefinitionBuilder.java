package io.quarkiverse.ratelimit.runtime.limit;

import java.util.List;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;

/** Builds a {@link LimitDefinition} by name ({@link LimitDefinition#builder}, {@link LimitDefinition#toBuilder}). */
public final class LimitDefinitionBuilder {

    private final String name;
    private long limit;
    private long windowMillis;
    private Algorithm algorithm = Algorithm.SLIDING_WINDOW_COUNTER;
    private FailureMode failureMode = FailureMode.DEFAULT;
    private long cost = 1;
    private List<String> refundOn = List.of();
    private boolean refundOnServerError;
    private long burst;
    private Scope scope = Scope.TENANT;
    private String policy;
    private TenantSource tenantSource = TenantSource.DEFAULT;
    private String endpoint;
    private List<Integer> keyParameters = List.of();
    private boolean cacheRefusals = true;
    private long maxWaitMillis;
    private long lateSlotToleranceMillis = -1;
    private boolean adaptive;
    private String costOf;
    private CalendarPeriod calendarPeriod = CalendarPeriod.NONE;
    private String timeZone;
    private int anchorDay = 1;

    LimitDefinitionBuilder(String name, long limit, long windowMillis) {
        this.name = name;
        this.limit = limit;
        this.windowMillis = windowMillis;
    }

    public LimitDefinitionBuilder limit(long limit) {
        this.limit = limit;
        return this;
    }

    public LimitDefinitionBuilder window(long windowMillis) {
        this.windowMillis = windowMillis;
        return this;
    }

    public LimitDefinitionBuilder algorithm(Algorithm algorithm) {
        this.algorithm = algorithm;
        return this;
    }

    public LimitDefinitionBuilder failureMode(FailureMode failureMode) {
        this.failureMode = failureMode;
        return this;
    }

    public LimitDefinitionBuilder cost(long cost) {
        this.cost = cost;
        return this;
    }

    public LimitDefinitionBuilder refundOn(List<String> refundOn) {
        this.refundOn = refundOn;
        return this;
    }

    public LimitDefinitionBuilder refundOnServerError(boolean refundOnServerError) {
        this.refundOnServerError = refundOnServerError;
        return this;
    }

    /** Units allowed at once for the token bucket and GCRA; 0 for the limit. */
    public LimitDefinitionBuilder burst(long burst) {
        this.burst = burst;
        return this;
    }

    public LimitDefinitionBuilder scope(Scope scope) {
        this.scope = scope;
        return this;
    }

    /** The named policy whose configuration applies, {@code null} for none. */
    public LimitDefinitionBuilder policy(String policy) {
        this.policy = policy;
        return this;
    }

    public LimitDefinitionBuilder tenantSource(TenantSource tenantSource) {
        this.tenantSource = tenantSource;
        return this;
    }

    /** The key segment of the HTTP method and path template when counted per endpoint. */
    public LimitDefinitionBuilder endpoint(String endpoint) {
        this.endpoint = endpoint;
        return this;
    }

    /** The positions of the method parameters whose values split the counter. */
    public LimitDefinitionBuilder keyParameters(List<Integer> keyParameters) {
        this.keyParameters = keyParameters;
        return this;
    }

    public LimitDefinitionBuilder cacheRefusals(boolean cacheRefusals) {
        this.cacheRefusals = cacheRefusals;
        return this;
    }

    /** How long a call may wait for a later slot; 0 when a refused call does not wait. */
    public LimitDefinitionBuilder maxWait(long maxWaitMillis) {
        this.maxWaitMillis = maxWaitMillis;
        return this;
    }

    /** How late a waiting call may still go at its slot; -1 for {@code quarkus.rate-limit.late-slot-tolerance}. */
    public LimitDefinitionBuilder lateSlotTolerance(long lateSlotToleranceMillis) {
        this.lateSlotToleranceMillis = lateSlotToleranceMillis;
        return this;
    }

    /** Whether the limit learns the upstream's real quota from its 429 answers. */
    public LimitDefinitionBuilder adaptive(boolean adaptive) {
        this.adaptive = adaptive;
        return this;
    }

    /** The {@code CostOf} bean class that reads a call's real cost from its result; {@code null}: none. */
    public LimitDefinitionBuilder costOf(String costOf) {
        this.costOf = costOf;
        return this;
    }

    /**
     * The period of a {@link Algorithm#CALENDAR_WINDOW}, its time zone ({@code null}: the configured one) and the day
     * a week or month starts on.
     */
    public LimitDefinitionBuilder calendar(CalendarPeriod calendarPeriod, String timeZone, int anchorDay) {
        this.calendarPeriod = calendarPeriod;
        this.timeZone = timeZone;
        this.anchorDay = anchorDay;
        return this;
    }

    public LimitDefinition build() {
        return new LimitDefinition(name, limit, windowMillis, algorithm, failureMode, cost, refundOn,
                refundOnServerError, burst, scope, policy, tenantSource, endpoint, keyParameters, cacheRefusals,
                maxWaitMillis, lateSlotToleranceMillis, adaptive, costOf, calendarPeriod, timeZone,
                anchorDay);
    }
}
