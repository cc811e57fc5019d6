package io.quarkiverse.ratelimit.deployment;

import java.util.ArrayList;
import java.util.List;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.Type;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.CostOf;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;

/**
 * What one {@link RateLimited} says, read from Jandex; an attribute the annotation leaves out has the default the
 * annotation type declares (read from it at build time, never restated here). Not yet checked.
 */
record DeclaredValues(long limit, String window, String policy, String name, Algorithm algorithm, long cost,
        long burst, Scope scope, FailureMode failureMode, TenantSource tenantSource, List<String> refundOn,
        boolean refundOnServerError, boolean perEndpoint, List<String> perParameter, boolean cacheRefusals,
        String maxWait, String lateSlotTolerance, boolean adaptive, String costOf, CalendarPeriod period,
        String timeZone, int anchorDay) {

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
                number(annotation, "limit"),
                string(annotation, "window"),
                policy.isEmpty() ? null : policy,
                string(annotation, "name"),
                algorithm(annotation),
                number(annotation, "cost"),
                number(annotation, "burst"),
                constant(annotation, "scope", Scope.class),
                constant(annotation, "failureMode", FailureMode.class),
                constant(annotation, "tenant", TenantSource.class),
                refundOn,
                flag(annotation, "refundOnServerError"),
                flag(annotation, "perEndpoint"),
                perParameter == null ? List.of() : List.of(perParameter.asStringArray()),
                flag(annotation, "cacheRefusals"),
                string(annotation, "maxWait"),
                string(annotation, "lateSlotTolerance"),
                flag(annotation, "adaptive"),
                costOf(annotation),
                constant(annotation, "period", CalendarPeriod.class),
                string(annotation, "timeZone"),
                (int) number(annotation, "anchorDay"));
    }

    /** The {@code CostOf} class that reads a call's real cost; {@code null} for the default, {@code CostOf} itself. */
    private static String costOf(AnnotationInstance annotation) {
        AnnotationValue value = annotation.value("costOf");
        String name = value == null ? null : value.asClass().name().toString();
        return name == null || name.equals(CostOf.class.getName()) ? null : name;
    }

    /** As declared; a calendar period left without an algorithm is counted by {@link Algorithm#CALENDAR_WINDOW}. */
    private static Algorithm algorithm(AnnotationInstance annotation) {
        if (annotation.value("algorithm") == null && constant(annotation, "period",
                CalendarPeriod.class) != CalendarPeriod.NONE) {
            return Algorithm.CALENDAR_WINDOW;
        }
        return constant(annotation, "algorithm", Algorithm.class);
    }

    private static long number(AnnotationInstance annotation, String name) {
        AnnotationValue value = annotation.value(name);
        return value == null ? ((Number) declaredDefault(name)).longValue() : value.asLong();
    }

    private static String string(AnnotationInstance annotation, String name) {
        AnnotationValue value = annotation.value(name);
        return value == null ? (String) declaredDefault(name) : value.asString();
    }

    private static boolean flag(AnnotationInstance annotation, String name) {
        AnnotationValue value = annotation.value(name);
        return value == null ? (Boolean) declaredDefault(name) : value.asBoolean();
    }

    private static <E extends Enum<E>> E constant(AnnotationInstance annotation, String name, Class<E> type) {
        AnnotationValue value = annotation.value(name);
        return value == null ? type.cast(declaredDefault(name)) : Enum.valueOf(type, value.asEnum());
    }

    /** The default {@link RateLimited} declares for an attribute (build time: the annotation type is on the path). */
    static Object declaredDefault(String attribute) {
        return AnnotationDefaults.of(RateLimited.class, attribute);
    }
}
