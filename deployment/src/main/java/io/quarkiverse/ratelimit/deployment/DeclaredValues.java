package io.quarkiverse.ratelimit.deployment;

import java.util.ArrayList;
import java.util.List;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.Type;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;

/** What one {@link RateLimited} says, read from Jandex with the annotation's defaults; not yet checked. */
record DeclaredValues(long limit, String window, String policy, String name, Algorithm algorithm, long cost,
        long burst, Scope scope, FailureMode failureMode, TenantSource tenantSource, List<String> refundOn,
        boolean refundOnServerError, boolean perEndpoint, List<String> perParameter, boolean cacheRefusals) {

    static DeclaredValues of(AnnotationInstance annotation) {
        String policy = string(annotation, "policy");
        List<String> refundOn = new ArrayList<>();
        AnnotationValue refundOnValue = annotation.value("refundOn");
        if (refundOnValue != null) {
            for (Type type : refundOnValue.asClassArray()) {
                refundOn.add(type.name().toString());
            }
        }
        AnnotationValue perParameter = annotation.value("perParameter");
        return new DeclaredValues(
                number(annotation, "limit", 0),
                string(annotation, "window"),
                policy.isEmpty() ? null : policy,
                string(annotation, "name"),
                constant(annotation, "algorithm", Algorithm.class, Algorithm.SLIDING_WINDOW_COUNTER),
                number(annotation, "cost", 1),
                number(annotation, "burst", 0),
                constant(annotation, "scope", Scope.class, Scope.TENANT),
                constant(annotation, "failureMode", FailureMode.class, FailureMode.DEFAULT),
                constant(annotation, "tenant", TenantSource.class, TenantSource.DEFAULT),
                refundOn,
                flag(annotation, "refundOnServerError"),
                flag(annotation, "perEndpoint"),
                perParameter == null ? List.of() : List.of(perParameter.asStringArray()),
                annotation.value("cacheRefusals") == null || flag(annotation, "cacheRefusals"));
    }

    private static long number(AnnotationInstance annotation, String name, long defaultValue) {
        AnnotationValue value = annotation.value(name);
        return value == null ? defaultValue : value.asLong();
    }

    private static String string(AnnotationInstance annotation, String name) {
        AnnotationValue value = annotation.value(name);
        return value == null ? "" : value.asString();
    }

    private static boolean flag(AnnotationInstance annotation, String name) {
        AnnotationValue value = annotation.value(name);
        return value != null && value.asBoolean();
    }

    private static <E extends Enum<E>> E constant(AnnotationInstance annotation, String name, Class<E> type,
            E defaultValue) {
        AnnotationValue value = annotation.value(name);
        return value == null ? defaultValue : Enum.valueOf(type, value.asEnum());
    }
}
