package io.quarkiverse.ratelimit.deployment;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;

import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkiverse.ratelimit.runtime.limit.SharedLimitNames;
import io.quarkiverse.ratelimit.runtime.limit.TenantRule;
import io.quarkiverse.ratelimit.runtime.limit.WaitingCalls;
import io.quarkus.runtime.configuration.DurationConverter;

/**
 * Reads every {@code @RateLimited} in the index, applies class-level limits to the methods they cover, validates the
 * values and names each limit. Problems are reported, never thrown, so that one build lists all of them.
 */
final class RateLimitedMethodScanner {

    static final DotName RATE_LIMITED = DotName.createSimple(RateLimited.class);

    private final IndexView index;
    private final Consumer<String> problems;
    private final boolean tokensAvailable;

    /** @param tokensAvailable whether the application authenticates JSON Web Tokens (for the JWT claim tenant source) */
    RateLimitedMethodScanner(IndexView index, Consumer<String> problems, boolean tokensAvailable) {
        this.index = index;
        this.problems = problems;
        this.tokensAvailable = tokensAvailable;
    }

    /** The valid rate-limited methods, with their limits named. */
    List<RateLimitedMethodBuildItem> scan() {
        Map<MethodInfo, List<AnnotationInstance>> annotations = annotationsByMethod();
        Map<String, Integer> defaultNameUses = new HashMap<>();
        annotations.keySet().forEach(method -> defaultNameUses.merge(AnnotatedMethods.defaultName(method), 1, Integer::sum));

        List<RateLimitedMethodBuildItem> methods = new ArrayList<>();
        Map<String, Named> namesInUse = new HashMap<>();
        Map<String, String> tagsInUse = new HashMap<>();
        for (Map.Entry<MethodInfo, List<AnnotationInstance>> entry : annotations.entrySet()) {
            MethodInfo method = entry.getKey();
            if (!isInterceptable(method)) {
                continue;
            }
            String baseName = AnnotatedMethods.defaultName(method);
            if (defaultNameUses.get(baseName) > 1) {
                baseName = baseName + "-" + shortHash(AnnotatedMethods.methodId(method));
            }
            Map<String, Integer> parameters = EndpointNames.parameters(method);
            List<LimitDefinition> limits = limits(method, entry.getValue(), baseName, parameters);
            if (limits == null || !namesAreConsistent(method, limits, namesInUse)) {
                continue;
            }
            ReturnKind returnKind = AnnotatedMethods.returnKind(method);
            if (returnKind == ReturnKind.SYNCHRONOUS && AnnotatedMethods.isNonBlocking(method)) {
                problem(method, "is @NonBlocking but returns a plain value: the rate-limit decision cannot be awaited"
                        + " on the event loop; return Uni, Multi or CompletionStage");
                continue;
            }
            MethodLimits methodLimits = new MethodLimits(limits, returnKind, parameters,
                    EndpointNames.requestParameters(method), AnnotatedMethods.isRestClient(method.declaringClass()));
            if (!sameKeyLayout(method, methodLimits, tagsInUse)) {
                continue;
            }
            methods.add(new RateLimitedMethodBuildItem(method, AnnotatedMethods.methodId(method), methodLimits));
        }
        return methods;
    }

    /** Method annotations win over class annotations; a class annotation covers the business methods it declares. */
    private Map<MethodInfo, List<AnnotationInstance>> annotationsByMethod() {
        Map<MethodInfo, List<AnnotationInstance>> byMethod = new LinkedHashMap<>();
        Map<ClassInfo, List<AnnotationInstance>> byClass = new LinkedHashMap<>();
        for (AnnotationInstance annotation : index.getAnnotationsWithRepeatable(RATE_LIMITED, index)) {
            AnnotationTarget target = annotation.target();
            if (target.kind() == AnnotationTarget.Kind.METHOD) {
                byMethod.computeIfAbsent(target.asMethod(), m -> new ArrayList<>()).add(annotation);
            } else if (target.kind() == AnnotationTarget.Kind.CLASS) {
                byClass.computeIfAbsent(target.asClass(), c -> new ArrayList<>()).add(annotation);
            }
        }
        byClass.forEach((clazz, classAnnotations) -> {
            for (MethodInfo method : clazz.methods()) {
                if (AnnotatedMethods.isBusinessMethod(method) && !byMethod.containsKey(method)) {
                    byMethod.put(method, classAnnotations);
                }
            }
        });
        return byMethod;
    }

    private boolean isInterceptable(MethodInfo method) {
        String violation = AnnotatedMethods.violation(method);
        if (violation != null) {
            problem(method, violation);
        }
        return violation == null;
    }

    private List<LimitDefinition> limits(MethodInfo method, List<AnnotationInstance> annotations, String baseName,
            Map<String, Integer> parameters) {
        List<LimitDefinition> limits = new ArrayList<>();
        boolean valid = true;
        for (AnnotationInstance annotation : annotations) {
            DeclaredValues declared = DeclaredValues.of(annotation);
            String endpoint = declared.perEndpoint() ? EndpointNames.endpoint(method) : null;
            List<Integer> keyParameters = new ArrayList<>();
            boolean limitValid = check(method, declared) & checkKeyLayout(method, declared, endpoint, parameters,
                    keyParameters);
            long windowMillis = windowMillis(method, declared);
            long maxWaitMillis = maxWaitMillis(method, declared);
            long toleranceMillis = declared.lateSlotTolerance().isEmpty() ? -1
                    : durationMillis(method, "lateSlotTolerance", declared.lateSlotTolerance());
            if (declared.adaptive() && !AnnotatedMethods.isRestClient(method.declaringClass())) {
                problem(method, "has adaptive = true, but an adaptive limit learns from the 429 answers of the service"
                        + " a REST Client calls: use it on a @RegisterRestClient interface's method");
                limitValid = false;
            }
            if (limitValid && windowMillis >= 0 && maxWaitMillis >= 0 && (toleranceMillis >= 0
                    || declared.lateSlotTolerance().isEmpty())) {
                String name = !declared.name().isEmpty() ? declared.name()
                        : annotations.size() == 1 ? baseName
                                : baseName + "-" + (declared.period() != CalendarPeriod.NONE
                                        ? declared.period().name().toLowerCase(Locale.ROOT)
                                        : windowMillis > 0 ? formatWindow(windowMillis) : declared.policy());
                limits.add(LimitDefinition.builder(name, declared.limit(), windowMillis)
                        .algorithm(declared.algorithm()).failureMode(declared.failureMode()).cost(declared.cost())
                        .refundOn(declared.refundOn()).refundOnServerError(declared.refundOnServerError())
                        .burst(declared.burst()).scope(declared.scope()).policy(declared.policy())
                        .tenantSource(declared.tenantSource()).endpoint(endpoint).keyParameters(keyParameters)
                        .cacheRefusals(declared.cacheRefusals()).maxWait(maxWaitMillis)
                        .lateSlotTolerance(toleranceMillis).adaptive(declared.adaptive()).costOf(declared.costOf())
                        .calendar(declared.period(), declared.timeZone().isEmpty() ? null : declared.timeZone(),
                                declared.anchorDay())
                        .build());
            } else {
                valid = false;
            }
        }
        if (!valid) {
            return null;
        }
        for (int i = 0; i < limits.size(); i++) {
            for (int j = i + 1; j < limits.size(); j++) {
                if (limits.get(i).getName().equals(limits.get(j).getName())) {
                    problem(method, "declares two limits named '" + limits.get(i).getName()
                            + "'; give each limit of a method its own name or window");
                    return null;
                }
            }
        }
        String waiting = WaitingCalls.violation(limits);
        if (waiting != null) {
            problem(method, waiting);
            return null;
        }
        return limits;
    }

    /**
     * The values the annotation itself states, by {@link LimitRules}. A limit with a policy may leave its limit and window
     * to configuration: that is checked at start-up, when the configuration (environment included) is known.
     */
    private boolean check(MethodInfo method, DeclaredValues declared) {
        boolean valid = true;
        if (declared.policy() != null) {
            valid &= rule(method, "policy = \"" + declared.policy() + "\"", LimitRules.name(declared.policy()));
        }
        if (!declared.name().isEmpty()) {
            valid &= rule(method, "name = \"" + declared.name() + "\"", LimitRules.name(declared.name()));
        }
        if (declared.policy() == null || declared.limit() != 0) {
            valid &= rule(method, "limit = " + declared.limit(), LimitRules.limit(declared.limit(), declared.algorithm()));
        }
        valid &= rule(method, "burst = " + declared.burst(), LimitRules.burst(declared.burst(), declared.algorithm()));
        if (declared.policy() == null || declared.cost() < 0) {
            valid &= rule(method, "cost = " + declared.cost(),
                    LimitRules.cost(declared.cost(), Math.max(declared.limit(), 0), declared.burst()));
        }
        valid &= rule(method, "period = " + declared.period() + ", anchorDay = " + declared.anchorDay()
                + ", algorithm = " + declared.algorithm(),
                LimitRules.calendar(declared.period(), declared.anchorDay(), declared.algorithm()));
        if (!declared.timeZone().isEmpty()) {
            try {
                ZoneId.of(declared.timeZone());
            } catch (RuntimeException e) {
                valid = problem(method, "has timeZone = \"" + declared.timeZone() + "\", which is not a time zone;"
                        + " use an IANA name such as Europe/Berlin, or UTC");
            }
        }
        if (declared.tenantSource() == TenantSource.JWT_CLAIM && !tokensAvailable) {
            valid = problem(method, "takes its tenant from a JWT claim, but " + TenantRule.NO_TOKENS);
        }
        return valid;
    }

    /** Per-endpoint and per-parameter counters: the endpoint and parameters must exist. */
    private boolean checkKeyLayout(MethodInfo method, DeclaredValues declared, String endpoint,
            Map<String, Integer> parameters, List<Integer> keyParameters) {
        boolean valid = true;
        if (declared.perEndpoint() && endpoint == null) {
            valid = problem(method, "has perEndpoint = true, but is not a REST endpoint (no @GET, @POST...)");
        }
        for (String parameter : declared.perParameter()) {
            Integer position = parameters.get(parameter);
            if (position == null) {
                valid = problem(method, "has perParameter = \"" + parameter + "\", but the method has no parameter"
                        + " of that name (named parameters: " + parameters.keySet() + ")");
            } else {
                keyParameters.add(position);
            }
        }
        return valid;
    }

    /** The declared window in ms; 0 when a policy's configuration gives it; -1 (reported) when invalid. */
    private long windowMillis(MethodInfo method, DeclaredValues declared) {
        String window = declared.window();
        if (declared.period() != CalendarPeriod.NONE) {
            if (!window.isEmpty()) {
                problem(method, "has window = \"" + window + "\" and period = " + declared.period() + "; a limit"
                        + " counts per window or per calendar period: leave one out");
                return -1;
            }
            return declared.period().longest().toMillis();
        }
        if (window.isEmpty()) {
            if (declared.policy() != null) {
                return 0;
            }
            problem(method, "has no window; set window, e.g. \"1m\"");
            return -1;
        }
        long millis = durationMillis(method, "window", window);
        return millis >= 0 && rule(method, "window = \"" + window + "\"", LimitRules.durationMillis(millis)) ? millis
                : -1;
    }

    /** The declared maximum wait in ms; 0 when calls do not wait; -1 (reported) when invalid. */
    private long maxWaitMillis(MethodInfo method, DeclaredValues declared) {
        String maxWait = declared.maxWait();
        if (maxWait.isEmpty()) {
            return 0;
        }
        long millis = durationMillis(method, "maxWait", maxWait);
        return millis >= 0 && rule(method, "maxWait = \"" + maxWait + "\"",
                LimitRules.maxWait(millis, declared.algorithm())) ? millis : -1;
    }

    /** A duration attribute in ms; -1 (reported) when it is not a non-negative duration. */
    private long durationMillis(MethodInfo method, String attribute, String value) {
        Duration duration;
        try {
            duration = DurationConverter.parseDuration(value.trim());
        } catch (RuntimeException e) {
            duration = null;
        }
        if (duration == null || duration.isNegative()) {
            problem(method, "has " + attribute + " = \"" + value + "\", which is not a duration; use e.g. 500ms, 10s,"
                    + " 1m, 1h, 1d or PT1M");
            return -1;
        }
        return duration.toMillis();
    }

    private boolean rule(MethodInfo method, String attribute, String violation) {
        return violation == null || problem(method, "has " + attribute + "; " + violation);
    }

    /**
     * A limit shared by name must keep one key: methods that mix scopes tag every key of a call with the call's own
     * tag, so a name they share must have the same tag everywhere (or none, in methods with per-tenant limits only).
     */
    private boolean sameKeyLayout(MethodInfo method, MethodLimits limits, Map<String, String> tagsInUse) {
        String tag = RateLimitKeys.callTag(limits) == null ? "{tenant}" : RateLimitKeys.callTag(limits);
        for (LimitDefinition limit : limits.getLimits()) {
            String earlier = tagsInUse.putIfAbsent(limit.getName(), tag);
            if (earlier != null && !earlier.equals(tag)) {
                return problem(method, "shares limit '" + limit.getName() + "' with a method whose limits are scoped"
                        + " differently, so their keys would differ: give the limits distinct names, or the methods"
                        + " the same scopes");
            }
        }
        return true;
    }

    /** Methods may share a limit name (and so a counter) only when they agree on the limit. */
    private boolean namesAreConsistent(MethodInfo method, List<LimitDefinition> limits, Map<String, Named> namesInUse) {
        boolean consistent = true;
        for (LimitDefinition limit : limits) {
            Named earlier = namesInUse.putIfAbsent(limit.getName(), new Named(method, limit));
            if (earlier != null && !SharedLimitNames.countAlike(earlier.limit(), limit)) {
                consistent = problem(method, "declares limit '" + limit.getName() + "' as " + limit
                        + ", but " + AnnotatedMethods.describe(earlier.method()) + " declares it as " + earlier.limit()
                        + "; " + SharedLimitNames.RULE);
            }
        }
        return consistent;
    }

    static String formatWindow(long millis) {
        if (millis % 86_400_000 == 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }

    private static String shortHash(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean problem(MethodInfo method, String message) {
        problems.accept("@RateLimited on " + AnnotatedMethods.describe(method) + " " + message);
        return false;
    }

    private record Named(MethodInfo method, LimitDefinition limit) {
    }
}
