package io.quarkiverse.ratelimit.deployment;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.eclipse.microprofile.config.Config;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodIds;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkus.runtime.configuration.DurationConverter;

/**
 * Reads every {@code @RateLimited} in the index, applies class-level limits to the methods they cover, validates the
 * values and names each limit. Problems are reported, never thrown, so that one build lists all of them.
 */
final class RateLimitedMethodScanner {

    static final DotName RATE_LIMITED = DotName.createSimple(RateLimited.class);
    private static final DotName UNI = DotName.createSimple("io.smallrye.mutiny.Uni");
    private static final DotName MULTI = DotName.createSimple("io.smallrye.mutiny.Multi");
    private static final Set<DotName> COMPLETION_STAGES = Set.of(
            DotName.createSimple("java.util.concurrent.CompletionStage"),
            DotName.createSimple("java.util.concurrent.CompletableFuture"));
    private static final DotName NON_BLOCKING = DotName.createSimple("io.smallrye.common.annotation.NonBlocking");

    private final IndexView index;
    private final Consumer<String> problems;
    private final Config config;
    private final boolean tokensAvailable;

    /**
     * @param config the build-time view of the configuration, to check that the policies annotations use are defined
     * @param tokensAvailable whether the application authenticates JSON Web Tokens (for the JWT claim tenant source)
     */
    RateLimitedMethodScanner(IndexView index, Consumer<String> problems, Config config, boolean tokensAvailable) {
        this.index = index;
        this.problems = problems;
        this.config = config;
        this.tokensAvailable = tokensAvailable;
    }

    /** The valid rate-limited methods, with their limits named. */
    List<RateLimitedMethodBuildItem> scan() {
        Map<MethodInfo, List<AnnotationInstance>> annotations = annotationsByMethod();
        Map<String, Integer> defaultNameUses = new HashMap<>();
        annotations.keySet().forEach(method -> defaultNameUses.merge(defaultName(method), 1, Integer::sum));

        List<RateLimitedMethodBuildItem> methods = new ArrayList<>();
        Map<String, Named> namesInUse = new HashMap<>();
        Map<String, String> tagsInUse = new HashMap<>();
        for (Map.Entry<MethodInfo, List<AnnotationInstance>> entry : annotations.entrySet()) {
            MethodInfo method = entry.getKey();
            if (!isInterceptable(method)) {
                continue;
            }
            String baseName = defaultName(method);
            if (defaultNameUses.get(baseName) > 1) {
                baseName = baseName + "-" + shortHash(methodId(method));
            }
            Map<String, Integer> parameters = EndpointNames.parameters(method);
            List<LimitDefinition> limits = limits(method, entry.getValue(), baseName, parameters);
            if (limits == null || !namesAreConsistent(method, limits, namesInUse)) {
                continue;
            }
            ReturnKind returnKind = returnKind(method);
            if (returnKind == ReturnKind.SYNCHRONOUS && isNonBlocking(method)) {
                problem(method, "is @NonBlocking but returns a plain value: the rate-limit decision cannot be awaited"
                        + " on the event loop; return Uni, Multi or CompletionStage");
                continue;
            }
            MethodLimits methodLimits = new MethodLimits(limits, returnKind, parameters);
            if (!sameKeyLayout(method, methodLimits, tagsInUse)) {
                continue;
            }
            methods.add(new RateLimitedMethodBuildItem(method, methodId(method), methodLimits));
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
                if (isBusinessMethod(method) && !byMethod.containsKey(method)) {
                    byMethod.put(method, classAnnotations);
                }
            }
        });
        return byMethod;
    }

    static boolean isBusinessMethod(MethodInfo method) {
        return !method.isConstructor() && !method.isStaticInitializer() && !method.isSynthetic()
                && !java.lang.reflect.Modifier.isPrivate(method.flags())
                && !java.lang.reflect.Modifier.isStatic(method.flags());
    }

    private boolean isInterceptable(MethodInfo method) {
        if (method.declaringClass().isInterface()) {
            problem(method, "is declared on an interface; interceptor bindings on interfaces are not inherited:"
                    + " annotate the implementing class or method");
            return false;
        }
        if (java.lang.reflect.Modifier.isPrivate(method.flags())) {
            problem(method, "is private and cannot be intercepted; make it at least package-private");
            return false;
        }
        if (java.lang.reflect.Modifier.isStatic(method.flags())) {
            problem(method, "is static; rate-limit an instance method of a CDI bean");
            return false;
        }
        return true;
    }

    private List<LimitDefinition> limits(MethodInfo method, List<AnnotationInstance> annotations, String baseName,
            Map<String, Integer> parameters) {
        List<LimitDefinition> limits = new ArrayList<>();
        boolean valid = true;
        for (AnnotationInstance annotation : annotations) {
            AnnotationValue limitValue = annotation.value("limit");
            long limit = limitValue == null ? 0 : limitValue.asLong();
            AnnotationValue windowValue = annotation.value("window");
            String window = windowValue == null ? "" : windowValue.asString();
            AnnotationValue policyValue = annotation.value("policy");
            String policy = policyValue == null || policyValue.asString().isEmpty() ? null : policyValue.asString();
            AnnotationValue tenantValue = annotation.value("tenant");
            TenantSource tenantSource = tenantValue == null ? TenantSource.DEFAULT
                    : TenantSource.valueOf(tenantValue.asEnum());
            AnnotationValue perEndpointValue = annotation.value("perEndpoint");
            String endpoint = null;
            if (perEndpointValue != null && perEndpointValue.asBoolean()) {
                endpoint = EndpointNames.endpoint(method);
                if (endpoint == null) {
                    valid = problem(method, "has perEndpoint = true, but is not a REST endpoint (no @GET, @POST...)");
                }
            }
            AnnotationValue perParameterValue = annotation.value("perParameter");
            List<Integer> keyParameters = new ArrayList<>();
            for (String parameter : perParameterValue == null ? new String[0] : perParameterValue.asStringArray()) {
                Integer position = parameters.get(parameter);
                if (position == null) {
                    valid = problem(method, "has perParameter = \"" + parameter + "\", but the method has no parameter"
                            + " of that name (named parameters: " + parameters.keySet() + ")");
                } else {
                    keyParameters.add(position);
                }
            }
            if (tenantSource == TenantSource.JWT_CLAIM && !tokensAvailable) {
                valid = problem(method, "takes its tenant from a JWT claim, but the application has neither"
                        + " quarkus-smallrye-jwt nor quarkus-oidc");
            }
            AnnotationValue algorithmValue = annotation.value("algorithm");
            Algorithm algorithm = algorithmValue == null ? Algorithm.SLIDING_WINDOW_COUNTER
                    : Algorithm.valueOf(algorithmValue.asEnum());
            AnnotationValue costValue = annotation.value("cost");
            long cost = costValue == null ? 1 : costValue.asLong();
            AnnotationValue refundOnValue = annotation.value("refundOn");
            List<String> refundOn = new ArrayList<>();
            if (refundOnValue != null) {
                for (Type type : refundOnValue.asClassArray()) {
                    refundOn.add(type.name().toString());
                }
            }
            AnnotationValue refundOnServerErrorValue = annotation.value("refundOnServerError");
            boolean refundOnServerError = refundOnServerErrorValue != null && refundOnServerErrorValue.asBoolean();
            AnnotationValue failureModeValue = annotation.value("failureMode");
            FailureMode failureMode = failureModeValue == null ? FailureMode.DEFAULT
                    : FailureMode.valueOf(failureModeValue.asEnum());
            AnnotationValue nameValue = annotation.value("name");
            String explicitName = nameValue == null ? "" : nameValue.asString();

            if (policy != null && !RateLimitKeys.isValidName(policy)) {
                valid = problem(method, "has policy = \"" + policy + "\"; a policy name is 1 to 100 letters, digits,"
                        + " '.', '_' or '-'");
            } else if (limit < 0 || limit == 0 && !policySets(policy, "limit")) {
                valid = problem(method, limit < 0 || policy == null
                        ? "has limit = " + limit + "; it must be greater than zero"
                        : "uses policy '" + policy + "', which is not configured with a limit: set "
                                + policyProperty(policy, "limit") + ", or limit in the annotation");
            }
            AnnotationValue scopeValue = annotation.value("scope");
            Scope scope = scopeValue == null ? Scope.TENANT : Scope.valueOf(scopeValue.asEnum());
            AnnotationValue burstValue = annotation.value("burst");
            long burst = burstValue == null ? 0 : burstValue.asLong();
            if (burst < 0 || (burst > 0 && algorithm != Algorithm.TOKEN_BUCKET && algorithm != Algorithm.GCRA)) {
                valid = problem(method, "has burst = " + burst + "; a burst is a positive number of units, for"
                        + " TOKEN_BUCKET and GCRA only");
            }
            long capacity = burst > 0 ? burst : limit;
            if (cost < 0 || (capacity > 0 && cost > capacity && policy == null)) {
                valid = problem(method, "has cost = " + cost + "; it must be between 0 and the limit (" + capacity
                        + "), or no call could ever be admitted");
            }
            long windowMillis = 0;
            if (!window.isEmpty() || !policySets(policy, "window")) {
                windowMillis = windowMillis(method, window, policy);
                if (windowMillis <= 0) {
                    valid = false;
                }
            }
            if (!explicitName.isEmpty() && !RateLimitKeys.isValidName(explicitName)) {
                valid = problem(method, "has name = \"" + explicitName + "\"; a limit name is 1 to 100 letters, digits,"
                        + " '.', '_' or '-'");
            }
            if (valid) {
                String name = !explicitName.isEmpty() ? explicitName
                        : annotations.size() == 1 ? baseName
                                : baseName + "-" + (windowMillis > 0 ? formatWindow(windowMillis) : policy);
                limits.add(new LimitDefinition(name, limit, windowMillis, algorithm, failureMode, cost, refundOn,
                        refundOnServerError, burst, scope, policy, tenantSource, endpoint, keyParameters));
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
        return limits;
    }

    /** Whether the configuration known at build time sets {@code quarkus.rate-limit.policies.<policy>.<property>}. */
    private boolean policySets(String policy, String property) {
        if (policy == null) {
            return false;
        }
        return config.getOptionalValue(policyProperty(policy, property), String.class).isPresent()
                || config.getOptionalValue("quarkus.rate-limit.policies.\"" + policy + "\"." + property, String.class)
                        .isPresent();
    }

    private static String policyProperty(String policy, String property) {
        return "quarkus.rate-limit.policies." + policy + "." + property;
    }

    private long windowMillis(MethodInfo method, String window, String policy) {
        if (window.isEmpty()) {
            problem(method, policy == null ? "has no window; set window, e.g. \"1m\""
                    : "uses policy '" + policy + "', which is not configured with a window: set "
                            + policyProperty(policy, "window") + ", or window in the annotation");
            return -1;
        }
        Duration duration;
        try {
            duration = DurationConverter.parseDuration(window.trim());
        } catch (RuntimeException e) {
            problem(method, "has window = \"" + window + "\", which is not a duration; use e.g. 500ms, 10s, 1m, 1h,"
                    + " 1d or PT1M");
            return -1;
        }
        if (duration == null || duration.toMillis() <= 0) {
            problem(method, "has window = \"" + window + "\"; it must be at least 1ms");
            return -1;
        }
        return duration.toMillis();
    }

    /**
     * A limit shared by name must keep one key: methods that mix scopes tag every key of a call with the call's own
     * tag, so a name they share must have the same tag everywhere (or none, in methods with per-tenant limits only).
     */
    private boolean sameKeyLayout(MethodInfo method, MethodLimits limits, Map<String, String> tagsInUse) {
        String tag = limits.callTag() == null ? "{tenant}" : limits.callTag();
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
            if (earlier != null && !earlier.limit().sameLimitAs(limit)) {
                consistent = problem(method, "declares limit '" + limit.getName() + "' as " + limit
                        + ", but " + describe(earlier.method()) + " declares it as " + earlier.limit()
                        + "; methods sharing a limit name share its counter and must agree on it");
            }
        }
        return consistent;
    }

    static ReturnKind returnKind(MethodInfo method) {
        DotName returnType = method.returnType().name();
        if (returnType.equals(UNI)) {
            return ReturnKind.UNI;
        }
        if (returnType.equals(MULTI)) {
            return ReturnKind.MULTI;
        }
        if (COMPLETION_STAGES.contains(returnType)) {
            return ReturnKind.COMPLETION_STAGE;
        }
        return ReturnKind.SYNCHRONOUS;
    }

    static boolean isNonBlocking(MethodInfo method) {
        return method.hasDeclaredAnnotation(NON_BLOCKING) || method.declaringClass().hasDeclaredAnnotation(NON_BLOCKING);
    }

    static String methodId(MethodInfo method) {
        List<String> parameterTypes = new ArrayList<>();
        for (Type type : method.parameterTypes()) {
            parameterTypes.add(type.name().toString());
        }
        return MethodIds.of(method.declaringClass().name().toString(), method.name(), parameterTypes);
    }

    static String describe(MethodInfo method) {
        List<String> parameterTypes = new ArrayList<>();
        for (Type type : method.parameterTypes()) {
            parameterTypes.add(type.name().withoutPackagePrefix());
        }
        return method.declaringClass().name() + "#" + method.name() + "(" + String.join(", ", parameterTypes) + ")";
    }

    static String defaultName(MethodInfo method) {
        return method.declaringClass().simpleName() + "." + method.name();
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
        problems.accept("@RateLimited on " + describe(method) + " " + message);
        return false;
    }

    private record Named(MethodInfo method, LimitDefinition limit) {
    }
}
