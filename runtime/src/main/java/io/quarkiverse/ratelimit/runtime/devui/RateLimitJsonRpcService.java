package io.quarkiverse.ratelimit.runtime.devui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.ReactiveRateLimitAdmin;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkiverse.ratelimit.runtime.decide.SlotWaits;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.outgoing.AdaptiveLimits;
import io.quarkiverse.ratelimit.runtime.policy.CodeLimits;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The Dev UI card's back end (dev mode only): the application's limits (the limits made in code that its calls used
 * among them), a tenant's status per limit and its reset, who is refused most, and the state of Redis and the circuit
 * breaker.
 */
public class RateLimitJsonRpcService {

    private final DeclaredLimits declared;
    private final EffectiveLimits effective;
    private final ReactiveRateLimitAdmin admin;
    private final LimiterStatus status;
    private final SlotWaits waits;
    private final AdaptiveLimits adaptive;
    private final CodeLimits codeLimits;

    RateLimitJsonRpcService(DeclaredLimits declared, EffectiveLimits effective, ReactiveRateLimitAdmin admin,
            LimiterStatus status, SlotWaits waits, AdaptiveLimits adaptive, CodeLimits codeLimits) {
        this.codeLimits = codeLimits;
        this.waits = waits;
        this.adaptive = adaptive;
        this.declared = declared;
        this.effective = effective;
        this.admin = admin;
        this.status = status;
    }

    /**
     * Every limit of every rate-limited method: as the annotation declares it (read at build time; zero or empty
     * where a policy gives the value), and as it applies after configuration.
     */
    @NonBlocking
    public List<Map<String, Object>> limits() {
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Map<String, Long>> learned = adaptive.learnedNow();
        new java.util.TreeMap<>(declared.all()).forEach((methodId, methodLimits) -> {
            EffectiveMethod applied = effective.all().get(methodId);
            List<LimitDefinition> declaredLimits = methodLimits.getLimits();
            for (int i = 0; i < declaredLimits.size(); i++) {
                LimitDefinition limit = declaredLimits.get(i);
                LimitDefinition configured = applied == null ? limit : applied.limits().getLimits().get(i);
                Map<String, Object> row = row(method(methodId), configured, limit.getPolicy());
                row.put("declaredLimit", limit.getLimit());
                row.put("declaredWindow", limit.getWindowMillis() == 0 || limit.getCalendarPeriod() != CalendarPeriod.NONE
                        ? ""
                        : window(limit.window()));
                row.put("maxWait", configured.getMaxWaitMillis() == 0 ? ""
                        : window(Duration.ofMillis(configured
                                .getMaxWaitMillis())));
                row.put("direction", methodLimits.isOutgoing() ? "outgoing (REST Client)" : "incoming");
                row.put("learned", learned(configured, learned.get(configured.getName())));
                rows.add(row);
            }
        });
        codeLimits.usedHere().forEach((name, limit) -> {
            Map<String, Object> row = row("RateLimiter (a limit made in code)", limit, null);
            row.put("cost", ""); // each call gives its own
            row.put("declaredLimit", "");
            row.put("declaredWindow", "");
            row.put("maxWait", "");
            row.put("direction", "incoming");
            row.put("learned", "");
            rows.add(row);
        });
        return rows;
    }

    /** A limit's row as it applies: where it is used, its name and policy, and the values it decides with. */
    private static Map<String, Object> row(String method, LimitDefinition limit, String policy) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("method", method);
        row.put("name", limit.getName());
        row.put("policy", policy == null ? "" : policy);
        row.put("limit", limit.getLimit());
        row.put("window", limit.getCalendarPeriod() == CalendarPeriod.NONE ? window(limit.window()) : calendar(limit));
        row.put("algorithm", name(limit.getAlgorithm()));
        row.put("scope", name(limit.getScope()));
        row.put("cost", limit.getCost());
        row.put("burst", limit.getBurst());
        row.put("failureMode", name(limit.getFailureMode()));
        return row;
    }

    /**
     * What an adaptive limit learned of its upstream: "adaptive" while it keeps the configured limit, else the lowest
     * learned limit of its keys.
     */
    private static String learned(LimitDefinition limit, Map<String, Long> learnedByKey) {
        if (!limit.isAdaptive()) {
            return "";
        }
        if (learnedByKey == null || learnedByKey.isEmpty()) {
            return "adaptive: " + limit.getLimit();
        }
        long lowest = learnedByKey.values().stream().mapToLong(Long::longValue).min().getAsLong();
        return "learned " + lowest + " of " + limit.getLimit()
                + (learnedByKey.size() > 1 ? " (lowest of " + learnedByKey.size() + " keys)" : "");
    }

    /** A calendar period as people say it: "a month from day 15, Europe/Berlin". */
    private static String calendar(LimitDefinition limit) {
        String period = limit.getCalendarPeriod().name().toLowerCase(java.util.Locale.ROOT);
        return "a " + period + (limit.getAnchorDay() > 1 ? " from day " + limit.getAnchorDay() : "") + ", "
                + limit.getTimeZone();
    }

    /** The names a tenant's status and reset take: each per-tenant limit's policy or name. */
    @NonBlocking
    public List<String> policies() {
        return admin.policies();
    }

    /**
     * The tenant's state in every per-tenant limit, read from Redis without consuming anything; counters split per
     * parameter are left out (they need a value of each).
     */
    public Uni<List<Map<String, Object>>> tenantStatus(String tenant) {
        return codeLimits.names().map(made -> {
            List<String> names = new ArrayList<>(admin.policies());
            made.stream().filter(name -> !names.contains(name)).forEach(names::add);
            return names;
        }).flatMap(names -> tenantStatus(tenant, names));
    }

    /** The tenant's state in each of {@code names}: an annotation's policies and names, the limits made in code. */
    private Uni<List<Map<String, Object>>> tenantStatus(String tenant, List<String> names) {
        return Multi.createFrom().iterable(names)
                .onItem().transformToUniAndConcatenate(policy -> Uni.createFrom()
                        .deferred(() -> admin.status(tenant, policy))
                        .onFailure(IllegalArgumentException.class).recoverWithItem(List.of())
                        .map(decisions -> rows(policy, decisions)))
                .collect().asList()
                .map(perPolicy -> perPolicy.stream().flatMap(List::stream).toList());
    }

    /** Deletes the tenant's counters of one policy (or limit name): its next call starts afresh. */
    public Uni<List<Map<String, Object>>> reset(String tenant, String policy) {
        return admin.reset(tenant, policy).chain(() -> tenantStatus(tenant));
    }

    /** The callers refused most over the last {@code minutes}, fleet-wide (the admin's {@code refusedMost}). */
    public Uni<List<Map<String, Object>>> refusedMost(int minutes) {
        return admin.refusedMost(Duration.ofMinutes(minutes), 20).map(callers -> callers.stream().map(caller -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("kind", caller.subject().kind() == RateLimitSubject.Kind.CLIENT_ADDRESS ? "caller address" : "tenant");
            row.put("caller", caller.subject().name());
            row.put("refusals", caller.refusals());
            return row;
        }).toList());
    }

    /** Redis and the circuit breaker as this instance sees them, with the counters since start-up. */
    @NonBlocking
    public Map<String, Object> breaker() {
        Map<String, Object> state = status.snapshot(null);
        Map<String, Map<String, Object>> switches = admin.switches();
        state.put("run-time-switches", switches.isEmpty() ? "none" : switches.toString());
        state.put("calls-waiting-for-a-slot", waits.waiting());
        return state;
    }

    private static List<Map<String, Object>> rows(String policy, List<RateLimitDecision> decisions) {
        List<Map<String, Object>> rows = new ArrayList<>(decisions.size());
        for (RateLimitDecision decision : decisions) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("policy", policy);
            row.put("name", decision.limitName());
            row.put("limit", decision.limit());
            row.put("window", window(decision.window()));
            row.put("remaining", decision.remaining());
            row.put("resetInSeconds", seconds(decision.resetAfter()));
            // read at cost 0: refused only beyond the limit, where settled overruns (reserve, then settle) put it
            row.put("debt", decision.allowed() ? "" : "in debt, paid back in " + seconds(decision.retryAfter()) + " s");
            row.put("decidedByRedis", !decision.degraded());
            rows.add(row);
        }
        return rows;
    }

    /** As the annotation writes it: {@code 1h}, {@code 10s}, {@code 250ms}. */
    static String window(Duration window) {
        return ConfigSpelling.window(window.toMillis());
    }

    private static long seconds(Duration duration) {
        return (duration.toMillis() + 999) / 1000;
    }

    /**
     * {@code Class#method(types)} without the package, as a person reads it: a REST Client's method by its interface's
     * name, not that of the bean Quarkus generates for it ({@code CarrierApi$$CDIWrapper}).
     */
    static String method(String methodId) {
        int hash = methodId.indexOf('#');
        int lastDot = methodId.lastIndexOf('.', hash);
        return methodId.substring(lastDot + 1).replace("$$CDIWrapper#", "#");
    }

    private static String name(Enum<?> value) {
        return ConfigSpelling.of(value);
    }

}
