package io.quarkiverse.ratelimit.runtime.limit;

import java.util.List;
import java.util.Map;

import io.quarkiverse.ratelimit.Scope;
import io.quarkus.runtime.annotations.RecordableConstructor;

/** Everything the decision needs for one method, computed at build time. */
public final class MethodLimits {

    private final List<LimitDefinition> limits;
    private final ReturnKind returnKind;
    private final boolean refunds;
    private final String mixedScopeName;
    private final boolean needsClientAddress;
    private final Map<String, Integer> parameters;
    private final Map<Integer, RequestParameter> requestParameters;
    private final int algorithmSet;
    private final boolean outgoing;
    private final boolean adaptive;
    private final boolean settles;
    private final boolean costsFromResults;

    public MethodLimits(List<LimitDefinition> limits, ReturnKind returnKind) {
        this(limits, returnKind, Map.of(), Map.of(), false);
    }

    /**
     * @param parameters the position of each named parameter of the method (JAX-RS name or Java name)
     * @param requestParameters by position, the parameters of a REST endpoint the request holds as the method receives
     *        them: what can be read before the method's arguments exist
     * @param outgoing whether the method is a REST Client's: its calls go to another service, whose 429 pauses the limits
     */
    @RecordableConstructor
    public MethodLimits(List<LimitDefinition> limits, ReturnKind returnKind, Map<String, Integer> parameters,
            Map<Integer, RequestParameter> requestParameters, boolean outgoing) {
        this(limits, returnKind, parameters, requestParameters, outgoing, false);
    }

    /** @param settles whether a call is a reservation, settled at its real cost when it ends */
    private MethodLimits(List<LimitDefinition> limits, ReturnKind returnKind, Map<String, Integer> parameters,
            Map<Integer, RequestParameter> requestParameters, boolean outgoing, boolean settles) {
        this.outgoing = outgoing;
        this.settles = settles;
        this.limits = List.copyOf(limits);
        this.returnKind = returnKind;
        this.parameters = Map.copyOf(parameters);
        this.requestParameters = Map.copyOf(requestParameters);
        this.refunds = settles || this.limits.stream().anyMatch(limit -> !limit.getRefundOn().isEmpty()
                || limit.isRefundOnServerError() || limit.getCostOf() != null);
        this.mixedScopeName = mixedScopeName(this.limits);
        this.needsClientAddress = this.limits.stream().anyMatch(limit -> limit.getScope() == Scope.CLIENT_ADDRESS);
        this.algorithmSet = AlgorithmSet.of(this.limits);
        this.adaptive = this.limits.stream().anyMatch(LimitDefinition::isAdaptive);
        this.costsFromResults = this.limits.stream().anyMatch(limit -> limit.getCostOf() != null);
    }

    /** The name of the first limit that is not per tenant; {@code null} when every limit is per tenant. */
    private static String mixedScopeName(List<LimitDefinition> limits) {
        for (LimitDefinition limit : limits) {
            if (limit.getScope() != Scope.TENANT) {
                return limit.getName();
            }
        }
        return null;
    }

    /**
     * Whether the method is a REST Client's: its calls go to another service, and an answer of 429 or 503 with a
     * retry time pauses its limits there ({@code UpstreamPauses}).
     */
    public boolean isOutgoing() {
        return outgoing;
    }

    /** Whether a limit reads a call's real cost from its result ({@code costOf}): the call is settled when it returns. */
    public boolean costsFromResults() {
        return costsFromResults;
    }

    /** The same limits for a reservation, settled at its real cost when the call ends ({@code RateLimiter#reserve}). */
    public MethodLimits settled() {
        return new MethodLimits(limits, returnKind, parameters, requestParameters, outgoing, true);
    }

    /** Whether a limit of the method learns its upstream's quota ({@link LimitDefinition#isAdaptive()}). */
    public boolean hasAdaptiveLimits() {
        return adaptive;
    }

    /** The position of each named parameter of the method. */
    public Map<String, Integer> getParameters() {
        return parameters;
    }

    /** By position, the parameters of a REST endpoint the request holds as the method receives them. */
    public Map<Integer, RequestParameter> getRequestParameters() {
        return requestParameters;
    }

    /** The same method with other limit values (configuration); the key layout must not change. */
    public MethodLimits withLimits(List<LimitDefinition> configured) {
        return new MethodLimits(configured, returnKind, parameters, requestParameters, outgoing, settles);
    }

    /** The algorithms of the method's limits: which script decides its calls ({@link AlgorithmSet}). */
    public int algorithmSet() {
        return algorithmSet;
    }

    /**
     * When the method has a limit that is not per tenant, the name of the first such limit, which names the hash tag
     * every key of its calls shares ({@code RateLimitKeys}); {@code null} when every limit is per tenant.
     */
    public String mixedScopeName() {
        return mixedScopeName;
    }

    /** Whether a call needs its client address's tag. */
    public boolean needsClientAddress() {
        return needsClientAddress;
    }

    /**
     * Whether a call may give units back: a limit refunds a failed call, or the call is a reservation that settles
     * (from code, or a limit's {@code costOf}); most do neither, and their calls skip all refund bookkeeping.
     */
    public boolean refunds() {
        return refunds;
    }

    public List<LimitDefinition> getLimits() {
        return limits;
    }

    public ReturnKind getReturnKind() {
        return returnKind;
    }

}
