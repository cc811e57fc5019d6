package io.quarkiverse.ratelimit.deployment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.LimitRules;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkus.runtime.configuration.DurationConverter;

/** Reads and validates every {@code @ConcurrencyLimited}; a class annotation covers the methods it declares. */
final class ConcurrencyLimitedMethodScanner {

    static final DotName CONCURRENCY_LIMITED = DotName.createSimple(ConcurrencyLimited.class);

    private final IndexView index;
    private final Consumer<String> problems;

    ConcurrencyLimitedMethodScanner(IndexView index, Consumer<String> problems) {
        this.index = index;
        this.problems = problems;
    }

    List<ConcurrencyLimitedMethodBuildItem> scan() {
        Map<MethodInfo, AnnotationInstance> byMethod = new LinkedHashMap<>();
        List<AnnotationInstance> onClasses = new ArrayList<>();
        for (AnnotationInstance annotation : index.getAnnotations(CONCURRENCY_LIMITED)) {
            if (annotation.target().kind() == AnnotationTarget.Kind.METHOD) {
                byMethod.put(annotation.target().asMethod(), annotation);
            } else if (annotation.target().kind() == AnnotationTarget.Kind.CLASS) {
                onClasses.add(annotation);
            }
        }
        for (AnnotationInstance annotation : onClasses) {
            for (MethodInfo method : annotation.target().asClass().methods()) {
                if (AnnotatedMethods.isBusinessMethod(method)) {
                    byMethod.putIfAbsent(method, annotation);
                }
            }
        }
        List<ConcurrencyLimitedMethodBuildItem> methods = new ArrayList<>();
        byMethod.forEach((method, annotation) -> {
            ConcurrencyDefinition limit = definition(method, annotation);
            if (limit != null) {
                methods.add(new ConcurrencyLimitedMethodBuildItem(method, AnnotatedMethods.methodId(method),
                        limit));
            }
        });
        return methods;
    }

    private ConcurrencyDefinition definition(MethodInfo method, AnnotationInstance annotation) {
        int limit = annotation.value("limit").asInt();
        AnnotationValue leaseValue = annotation.value("lease");
        String lease = leaseValue == null ? (String) AnnotationDefaults.of(ConcurrencyLimited.class, "lease")
                : leaseValue.asString();
        AnnotationValue nameValue = annotation.value("name");
        String name = nameValue == null || nameValue.asString().isEmpty()
                ? AnnotatedMethods.defaultName(method) + "-concurrency"
                : nameValue.asString();
        AnnotationValue failureModeValue = annotation.value("failureMode");
        FailureMode failureMode = failureModeValue == null
                ? (FailureMode) AnnotationDefaults.of(ConcurrencyLimited.class, "failureMode")
                : FailureMode.valueOf(failureModeValue.asEnum());

        String notInterceptable = AnnotatedMethods.violation(method);
        boolean valid = notInterceptable == null || problem(method, notInterceptable);
        valid &= rule(method, "limit = " + limit, LimitRules.limit(limit));
        long leaseMillis = -1;
        try {
            Duration leaseDuration = DurationConverter.parseDuration(lease.trim());
            leaseMillis = leaseDuration == null ? 0 : leaseDuration.toMillis();
            valid &= rule(method, "lease = \"" + lease + "\"", LimitRules.durationMillis(leaseMillis));
        } catch (RuntimeException e) {
            valid = problem(method, "has lease = \"" + lease + "\", which is not a duration; use e.g. 500ms, 10s or 1m");
        }
        valid &= rule(method, "name = \"" + name + "\"", LimitRules.name(name));
        ReturnKind returnKind = AnnotatedMethods.returnKind(method);
        if (returnKind == ReturnKind.SYNCHRONOUS && AnnotatedMethods.isNonBlocking(method)) {
            valid = problem(method, "is @NonBlocking but returns a plain value: return Uni, Multi or CompletionStage");
        }
        return valid ? new ConcurrencyDefinition(name, limit, leaseMillis, failureMode, returnKind) : null;
    }

    private boolean rule(MethodInfo method, String attribute, String violation) {
        return violation == null || problem(method, "has " + attribute + "; " + violation);
    }

    private boolean problem(MethodInfo method, String message) {
        problems.accept("@ConcurrencyLimited on " + AnnotatedMethods.describe(method) + " " + message);
        return false;
    }
}
