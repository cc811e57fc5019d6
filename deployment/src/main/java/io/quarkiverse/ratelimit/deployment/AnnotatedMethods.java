package io.quarkiverse.ratelimit.deployment;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.ratelimit.runtime.limit.MethodIds;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;

/**
 * What both scanners read of an annotated method from the Jandex index: its id, its description in messages, its
 * default limit name, its return kind; and the one rule for where an interceptor binding of this extension
 * ({@code @RateLimited}, {@code @ConcurrencyLimited}) can take effect, a method CDI intercepts, reported by both with
 * the same words.
 */
final class AnnotatedMethods {

    private static final DotName UNI = DotName.createSimple("io.smallrye.mutiny.Uni");
    private static final DotName MULTI = DotName.createSimple("io.smallrye.mutiny.Multi");
    private static final Set<DotName> COMPLETION_STAGES = Set.of(
            DotName.createSimple("java.util.concurrent.CompletionStage"),
            DotName.createSimple("java.util.concurrent.CompletableFuture"));
    private static final DotName NON_BLOCKING = DotName.createSimple("io.smallrye.common.annotation.NonBlocking");
    private static final DotName REGISTER_REST_CLIENT = DotName
            .createSimple("org.eclipse.microprofile.rest.client.inject.RegisterRestClient");
    /**
     * The CDI bean Quarkus REST Client generates for a {@code @RegisterRestClient} interface ({@code <interface>$$CDIWrapper},
     * the name its fault-tolerance configuration keys use too): it copies the interface methods' interceptor bindings,
     * so the interceptor runs on its methods.
     */
    private static final String REST_CLIENT_BEAN_SUFFIX = "$$CDIWrapper";

    private AnnotatedMethods() {
    }

    /** Why the annotation on {@code method} would never run, or {@code null} when it would. */
    static String violation(MethodInfo method) {
        if (method.declaringClass().isInterface() && !isRestClient(method.declaringClass())) {
            return "is declared on an interface; interceptor bindings on interfaces are not inherited:"
                    + " annotate the implementing class or method (or a @RegisterRestClient interface's method)";
        }
        if (Modifier.isPrivate(method.flags())) {
            return "is private and cannot be intercepted; make it at least package-private";
        }
        if (Modifier.isStatic(method.flags())) {
            return "is static; annotate an instance method of a CDI bean";
        }
        return null;
    }

    /** A Quarkus REST Client interface: its calls go out to another service (an outgoing quota). */
    static boolean isRestClient(ClassInfo type) {
        return type.isInterface() && type.hasDeclaredAnnotation(REGISTER_REST_CLIENT);
    }

    static boolean isBusinessMethod(MethodInfo method) {
        return !method.isConstructor() && !method.isStaticInitializer() && !method.isSynthetic()
                && !java.lang.reflect.Modifier.isPrivate(method.flags())
                && !java.lang.reflect.Modifier.isStatic(method.flags());
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
        String declaringClass = method.declaringClass().name().toString();
        return MethodIds.of(isRestClient(method.declaringClass()) ? declaringClass + REST_CLIENT_BEAN_SUFFIX
                : declaringClass, method.name(), parameterTypes);
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
}
