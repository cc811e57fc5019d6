package io.quarkiverse.ratelimit.deployment;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;

import io.quarkiverse.ratelimit.runtime.http.RateLimitRequestFilter;
import io.quarkus.resteasy.reactive.spi.AbstractInterceptorBuildItem;
import io.quarkus.resteasy.reactive.spi.ContainerRequestFilterBuildItem;

/**
 * The application's steps in Quarkus REST around the limiter's request filter, as the build knows them: request
 * filters (pre-matching, or at or before the limiter's priority), response filters and writer interceptors, whether
 * the application declares them ({@code @Provider} classes, {@code @ServerRequestFilter} / {@code @ServerResponseFilter}
 * methods) or an extension registers them. A filter bound by name counts for the endpoints that carry its binding; one
 * whose binding the build cannot read counts for every endpoint (the safe path).
 */
final class RestStepsAroundTheLimiter {

    static final DotName PROVIDER = DotName.createSimple("jakarta.ws.rs.ext.Provider");
    static final DotName PRE_MATCHING = DotName.createSimple("jakarta.ws.rs.container.PreMatching");
    static final DotName PRIORITY = DotName.createSimple("jakarta.annotation.Priority");
    static final DotName NAME_BINDING = DotName.createSimple("jakarta.ws.rs.NameBinding");
    static final DotName REQUEST_FILTER = DotName.createSimple("jakarta.ws.rs.container.ContainerRequestFilter");
    static final DotName RESPONSE_FILTER = DotName.createSimple("jakarta.ws.rs.container.ContainerResponseFilter");
    static final DotName WRITER_INTERCEPTOR = DotName.createSimple("jakarta.ws.rs.ext.WriterInterceptor");
    /** Quarkus REST's default priority of a filter that declares none ({@code Priorities.USER}). */
    static final int USER_PRIORITY = 5000;

    /** One step: its priority, whether it runs before matching, the name bindings that select its endpoints. */
    private record Step(int priority, boolean preMatching, Set<String> nameBindings) {

        boolean appliesTo(Set<String> endpointAnnotations) {
            return preMatching || nameBindings.isEmpty() || nameBindings.stream().anyMatch(endpointAnnotations::contains);
        }
    }

    private final IndexView index;
    private final List<Step> requestSteps = new ArrayList<>();
    private final List<Step> answerSteps = new ArrayList<>();

    RestStepsAroundTheLimiter(IndexView index, List<ContainerRequestFilterBuildItem> requestFilters,
            List<? extends AbstractInterceptorBuildItem> responseSteps) {
        this.index = index;
        for (ContainerRequestFilterBuildItem filter : requestFilters) {
            if (!filter.getClassName().equals(RateLimitRequestFilter.class.getName())) {
                requestSteps.add(new Step(priority(filter.getPriority()), filter.isPreMatching(),
                        nameBindings(filter)));
            }
        }
        for (AbstractInterceptorBuildItem step : responseSteps) {
            answerSteps.add(new Step(priority(step.getPriority()), false, nameBindings(step)));
        }
        for (ClassInfo provider : providers(REQUEST_FILTER)) {
            requestSteps.add(new Step(priority(provider), provider.declaredAnnotation(PRE_MATCHING) != null,
                    nameBindings(provider)));
        }
        for (DotName type : List.of(RESPONSE_FILTER, WRITER_INTERCEPTOR)) {
            for (ClassInfo provider : providers(type)) {
                answerSteps.add(new Step(priority(provider), false, nameBindings(provider)));
            }
        }
    }

    /** Whether a step of the application's may answer a request to {@code method} before the limiter's filter. */
    boolean stepsBeforeLimiter(MethodInfo method) {
        Set<String> annotations = annotations(method);
        return requestSteps.stream().anyMatch(step -> step.appliesTo(annotations)
                && (step.preMatching() || step.priority() <= RateLimitRequestFilter.PRIORITY));
    }

    /** Whether a response filter or writer interceptor of the application's sees what {@code method} answers. */
    boolean stepsOnAnswers(MethodInfo method) {
        Set<String> annotations = annotations(method);
        return answerSteps.stream().anyMatch(step -> step.appliesTo(annotations));
    }

    /** The {@code @Provider} classes of {@code type} Quarkus REST discovers. */
    private List<ClassInfo> providers(DotName type) {
        List<ClassInfo> providers = new ArrayList<>();
        for (ClassInfo implementor : index.getAllKnownImplementors(type)) {
            if (implementor.declaredAnnotation(PROVIDER) != null && !implementor.isInterface()
                    && !Modifier.isAbstract(implementor.flags())) {
                providers.add(implementor);
            }
        }
        return providers;
    }

    /** A provider's name bindings: its annotations that are themselves {@code @NameBinding}. */
    private Set<String> nameBindings(ClassInfo provider) {
        Set<String> bindings = new HashSet<>();
        for (AnnotationInstance annotation : provider.declaredAnnotations()) {
            ClassInfo type = index.getClassByName(annotation.name());
            if (type != null && type.declaredAnnotation(NAME_BINDING) != null) {
                bindings.add(annotation.name().toString());
            }
        }
        return bindings;
    }

    /** The annotations of a resource method and its class: what a name-bound step is selected by. */
    private static Set<String> annotations(MethodInfo method) {
        Set<String> names = new HashSet<>();
        method.declaredAnnotations().forEach(annotation -> names.add(annotation.name().toString()));
        method.declaringClass().declaredAnnotations().forEach(annotation -> names.add(annotation.name().toString()));
        return names;
    }

    private static Set<String> nameBindings(AbstractInterceptorBuildItem step) {
        return step.getNameBindingNames() == null ? Set.of() : step.getNameBindingNames();
    }

    private static int priority(Integer declared) {
        return declared == null ? USER_PRIORITY : declared;
    }

    private static int priority(ClassInfo provider) {
        AnnotationInstance priority = provider.declaredAnnotation(PRIORITY);
        AnnotationValue value = priority == null ? null : priority.value();
        return value == null ? USER_PRIORITY : value.asInt();
    }
}
