package io.quarkiverse.ratelimit.runtime.limit;

import java.lang.reflect.Method;
import java.util.List;

/**
 * The identity of a method as both Jandex (build time) and {@link Method} (run time) can spell it:
 * {@code com.acme.Resource#search(java.lang.String,int)}, with binary class names ({@code Outer$Inner},
 * {@code [Ljava.lang.String;}).
 */
public final class MethodIds {

    private MethodIds() {
    }

    public static String of(String declaringClass, String name, List<String> parameterTypes) {
        return declaringClass + '#' + name + '(' + String.join(",", parameterTypes) + ')';
    }

    public static String of(Method method) {
        Class<?>[] types = method.getParameterTypes();
        String[] names = new String[types.length];
        for (int i = 0; i < types.length; i++) {
            names[i] = types[i].getName();
        }
        return of(method.getDeclaringClass().getName(), method.getName(), List.of(names));
    }
}
