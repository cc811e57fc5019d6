package io.quarkiverse.ratelimit.deployment;

import java.lang.reflect.Modifier;

import org.jboss.jandex.MethodInfo;

/**
 * The one rule for where an interceptor binding of this extension ({@code @RateLimited}, {@code @ConcurrencyLimited})
 * can take effect: on a method CDI intercepts. Both scanners report a violation with the same words.
 */
final class InterceptableMethods {

    private InterceptableMethods() {
    }

    /** Why the annotation on {@code method} would never run, or {@code null} when it would. */
    static String violation(MethodInfo method) {
        if (method.declaringClass().isInterface()) {
            return "is declared on an interface; interceptor bindings on interfaces are not inherited:"
                    + " annotate the implementing class or method";
        }
        if (Modifier.isPrivate(method.flags())) {
            return "is private and cannot be intercepted; make it at least package-private";
        }
        if (Modifier.isStatic(method.flags())) {
            return "is static; annotate an instance method of a CDI bean";
        }
        return null;
    }
}
