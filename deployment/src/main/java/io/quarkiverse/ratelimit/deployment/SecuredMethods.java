package io.quarkiverse.ratelimit.deployment;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;

/**
 * Whether Quarkus's security may check a call of a method: an annotation of Quarkus's security or of Jakarta's
 * ({@code @RolesAllowed}, {@code @Authenticated}, {@code @PermissionsAllowed}, an authentication mechanism's,
 * an OIDC tenant's...), or an application annotation carrying one, on the method, its class, or a class that extends
 * or implements it. {@code @PermitAll} alone checks nothing. Errs towards "checked": it only decides which refusals
 * may be answered before Quarkus REST.
 */
final class SecuredMethods {

    private static final List<String> SECURITY_PACKAGES = List.of("jakarta.annotation.security.",
            "io.quarkus.security.", "io.quarkus.vertx.http.security.",
            "io.quarkus.vertx.http.runtime.security.annotation.", "io.quarkus.oidc.");
    private static final DotName PERMIT_ALL = DotName.createSimple("jakarta.annotation.security.PermitAll");

    private final IndexView index;

    SecuredMethods(IndexView index) {
        this.index = index;
    }

    boolean mayBeChecked(MethodInfo method) {
        ClassInfo declaring = method.declaringClass();
        List<ClassInfo> classes = new ArrayList<>(List.of(declaring));
        classes.addAll(index.getAllKnownSubclasses(declaring.name()));
        classes.addAll(index.getAllKnownImplementors(declaring.name()));
        for (ClassInfo clazz : classes) {
            if (anySecurity(clazz.declaredAnnotations())) {
                return true;
            }
            MethodInfo same = clazz.method(method.name(), method.parameterTypes());
            if (same != null && anySecurity(onMethod(same))) {
                return true;
            }
        }
        return false;
    }

    private static List<AnnotationInstance> onMethod(MethodInfo method) {
        List<AnnotationInstance> annotations = new ArrayList<>();
        for (AnnotationInstance annotation : method.annotations()) {
            if (annotation.target().kind() == AnnotationTarget.Kind.METHOD) {
                annotations.add(annotation);
            }
        }
        return annotations;
    }

    private boolean anySecurity(Collection<AnnotationInstance> annotations) {
        for (AnnotationInstance annotation : annotations) {
            if (isSecurity(annotation.name())) {
                return true;
            }
            ClassInfo type = index.getClassByName(annotation.name());
            if (type != null && !inSecurityPackage(annotation.name())) {
                for (AnnotationInstance meta : type.declaredAnnotations()) {
                    if (isSecurity(meta.name())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean isSecurity(DotName name) {
        return inSecurityPackage(name) && !name.equals(PERMIT_ALL);
    }

    private static boolean inSecurityPackage(DotName name) {
        String text = name.toString();
        for (String prefix : SECURITY_PACKAGES) {
            if (text.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
