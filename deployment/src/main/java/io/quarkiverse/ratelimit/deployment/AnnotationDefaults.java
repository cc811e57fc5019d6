package io.quarkiverse.ratelimit.deployment;

import java.lang.annotation.Annotation;

/**
 * The default an annotation type declares for an attribute, read from the type at build time: the scanners never
 * restate a default by hand, so the annotation's Javadoc and the scanners cannot disagree.
 */
final class AnnotationDefaults {

    private AnnotationDefaults() {
    }

    static Object of(Class<? extends Annotation> type, String attribute) {
        try {
            Object value = type.getMethod(attribute).getDefaultValue();
            if (value == null) {
                throw new IllegalArgumentException("@" + type.getSimpleName() + "." + attribute + " has no default");
            }
            return value;
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("@" + type.getSimpleName() + " has no attribute " + attribute, e);
        }
    }
}
