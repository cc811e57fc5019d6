package io.quarkiverse.ratelimit.deployment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;

import io.quarkiverse.ratelimit.runtime.key.KeyEscaping;
import io.quarkiverse.ratelimit.runtime.limit.RequestParameter;

/**
 * What the JAX-RS annotations of a method say about it: the names of its parameters and its endpoint (HTTP method and
 * path template), read from the index at build time.
 */
final class EndpointNames {

    private static final List<String> HTTP_METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD",
            "OPTIONS");
    private static final DotName PATH = DotName.createSimple("jakarta.ws.rs.Path");
    private static final List<DotName> NAMED_PARAMETERS = List.of(
            DotName.createSimple("jakarta.ws.rs.PathParam"), DotName.createSimple("jakarta.ws.rs.QueryParam"),
            DotName.createSimple("jakarta.ws.rs.HeaderParam"), DotName.createSimple("jakarta.ws.rs.FormParam"),
            DotName.createSimple("jakarta.ws.rs.CookieParam"), DotName.createSimple("jakarta.ws.rs.MatrixParam"),
            DotName.createSimple("org.jboss.resteasy.reactive.RestPath"),
            DotName.createSimple("org.jboss.resteasy.reactive.RestQuery"),
            DotName.createSimple("org.jboss.resteasy.reactive.RestHeader"),
            DotName.createSimple("org.jboss.resteasy.reactive.RestForm"),
            DotName.createSimple("org.jboss.resteasy.reactive.RestCookie"),
            DotName.createSimple("org.jboss.resteasy.reactive.RestMatrix"));

    /** The annotations of parameters a request holds as the method receives them, if they are {@code String}s. */
    private static final Map<DotName, RequestParameter.Source> REQUEST_PARAMETERS = Map.of(
            DotName.createSimple("jakarta.ws.rs.PathParam"), RequestParameter.Source.PATH,
            DotName.createSimple("org.jboss.resteasy.reactive.RestPath"), RequestParameter.Source.PATH,
            DotName.createSimple("jakarta.ws.rs.QueryParam"), RequestParameter.Source.QUERY,
            DotName.createSimple("org.jboss.resteasy.reactive.RestQuery"), RequestParameter.Source.QUERY,
            DotName.createSimple("jakarta.ws.rs.HeaderParam"), RequestParameter.Source.HEADER,
            DotName.createSimple("org.jboss.resteasy.reactive.RestHeader"), RequestParameter.Source.HEADER);
    private static final DotName ENCODED = DotName.createSimple("jakarta.ws.rs.Encoded");
    private static final DotName DEFAULT_VALUE = DotName.createSimple("jakarta.ws.rs.DefaultValue");
    private static final DotName STRING = DotName.createSimple(String.class.getName());

    private EndpointNames() {
    }

    /**
     * By position, the parameters of a REST endpoint that the request holds exactly as the method receives them: its
     * {@code String} path, query and header parameters (decoded; none when the method is {@code @Encoded}, nor a
     * parameter with a {@code @DefaultValue}, nor one of another type, which a converter makes). A decision that reads
     * only these can be taken before the method's arguments exist.
     */
    static Map<Integer, RequestParameter> requestParameters(MethodInfo method) {
        Map<Integer, RequestParameter> parameters = new LinkedHashMap<>();
        if (method.hasAnnotation(ENCODED) || method.declaringClass().hasDeclaredAnnotation(ENCODED)) {
            return parameters;
        }
        for (int i = 0; i < method.parametersCount(); i++) {
            if (!method.parameterType(i).name().equals(STRING) || parameterAnnotation(method, i, DEFAULT_VALUE) != null) {
                continue;
            }
            for (Map.Entry<DotName, RequestParameter.Source> kind : REQUEST_PARAMETERS.entrySet()) {
                AnnotationInstance annotation = parameterAnnotation(method, i, kind.getKey());
                if (annotation != null) {
                    AnnotationValue value = annotation.value();
                    String name = value == null || value.asString().isEmpty() ? method.parameterName(i)
                            : value.asString();
                    if (name != null) {
                        parameters.put(i, new RequestParameter(kind.getValue(), name));
                    }
                }
            }
        }
        return parameters;
    }

    /**
     * Every name a parameter answers to, with its position: its JAX-RS name ({@code @PathParam("carrier")}, or
     * {@code @RestPath} without a value: the Java name) and its Java name (when compiled with {@code -parameters}).
     */
    static Map<String, Integer> parameters(MethodInfo method) {
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < method.parametersCount(); i++) {
            String javaName = method.parameterName(i);
            for (DotName annotationName : NAMED_PARAMETERS) {
                AnnotationInstance annotation = parameterAnnotation(method, i, annotationName);
                if (annotation != null) {
                    AnnotationValue value = annotation.value();
                    String name = value == null || value.asString().isEmpty() ? javaName : value.asString();
                    if (name != null) {
                        positions.putIfAbsent(name, i);
                    }
                }
            }
            if (javaName != null) {
                positions.putIfAbsent(javaName, i);
            }
        }
        return positions;
    }

    private static AnnotationInstance parameterAnnotation(MethodInfo method, int position, DotName name) {
        for (AnnotationInstance annotation : method.annotations(name)) {
            AnnotationTarget target = annotation.target();
            if (target != null && target.kind() == AnnotationTarget.Kind.METHOD_PARAMETER
                    && target.asMethodParameter().position() == position) {
                return annotation;
            }
        }
        return null;
    }

    /**
     * The key segment of a REST endpoint: its HTTP method and path template, {@code POST:/carriers/{carrier}/labels}
     * (regular expressions of templates dropped, characters that do not belong in a key escaped); {@code null} when the
     * method is not a REST endpoint.
     */
    static String endpoint(MethodInfo method) {
        String operation = operation(method);
        if (operation == null) {
            return null;
        }
        int space = operation.indexOf(' ');
        return operation.substring(0, space) + ":" + escape(operation.substring(space + 1));
    }

    /**
     * A REST endpoint's HTTP method and path template as an OpenAPI document names its operation,
     * {@code POST /carriers/{carrier}/labels}; {@code null} when the method is not a REST endpoint.
     */
    static String operation(MethodInfo method) {
        String httpMethod = null;
        for (String candidate : HTTP_METHODS) {
            if (method.hasDeclaredAnnotation(DotName.createSimple("jakarta.ws.rs." + candidate))) {
                httpMethod = candidate;
            }
        }
        if (httpMethod == null) {
            return null;
        }
        AnnotationInstance classPath = method.declaringClass().declaredAnnotation(PATH);
        AnnotationInstance methodPath = method.declaredAnnotation(PATH);
        String path = "/" + (classPath == null ? "" : classPath.value().asString()) + "/"
                + (methodPath == null ? "" : methodPath.value().asString());
        return httpMethod + " " + template(path);
    }

    /** Normalizes slashes and drops the regular expressions of templates: {@code {id: \\d+}} becomes {@code {id}}. */
    static String template(String path) {
        String withoutRegex = path.replaceAll("\\{\\s*([^}:\\s]+)\\s*:[^}]*}", "{$1}");
        String normalized = withoutRegex.replaceAll("/+", "/");
        return normalized.length() > 1 && normalized.endsWith("/") ? normalized.substring(0, normalized.length() - 1)
                : normalized;
    }

    /** Paths keep letters, digits and {@code /{}._-~} ({@link KeyEscaping}, the escaping of every key part). */
    private static String escape(String path) {
        return KeyEscaping.escape(path, "/{}._-~");
    }
}
