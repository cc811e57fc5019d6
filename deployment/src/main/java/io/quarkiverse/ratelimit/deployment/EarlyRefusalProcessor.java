package io.quarkiverse.ratelimit.deployment;

import static io.quarkus.deployment.annotations.ExecutionTime.RUNTIME_INIT;
import static io.quarkus.deployment.annotations.ExecutionTime.STATIC_INIT;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.ratelimit.runtime.RateLimitRecorder;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.http.EarlyRefusalFilter;
import io.quarkiverse.ratelimit.runtime.http.EarlyRefusals;
import io.quarkiverse.ratelimit.runtime.http.OpenEndpoints;
import io.quarkiverse.ratelimit.runtime.http.RestSteps;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.resteasy.reactive.spi.AbstractInterceptorBuildItem;
import io.quarkus.resteasy.reactive.spi.ContainerRequestFilterBuildItem;
import io.quarkus.resteasy.reactive.spi.ContainerResponseFilterBuildItem;
import io.quarkus.resteasy.reactive.spi.WriterInterceptorBuildItem;
import io.quarkus.vertx.http.deployment.FilterBuildItem;

/**
 * A flood's refusals answered before Quarkus REST ({@link EarlyRefusals}) and written straight to the response: which
 * endpoints Quarkus's security leaves open, which the application's filters and interceptors leave alone
 * ({@link RestSteps}), and the HTTP filter, where REST endpoints are decided before dispatch.
 */
class EarlyRefusalProcessor {

    @BuildStep
    AdditionalBeanBuildItem earlyRefusalBean() {
        return AdditionalBeanBuildItem.builder().addBeanClasses(EarlyRefusals.class).setUnremovable().build();
    }

    /**
     * The limited methods no security annotation covers; none when the build makes Quarkus REST check unannotated
     * endpoints too ({@code quarkus.security.jaxrs.deny-unannotated-endpoints}, {@code default-roles-allowed}).
     */
    @BuildStep
    @Record(STATIC_INIT)
    SyntheticBeanBuildItem recordOpenEndpoints(RateLimitRecorder recorder, CombinedIndexBuildItem index,
            List<RateLimitedMethodBuildItem> methods) {
        Set<String> open = new TreeSet<>();
        if (!checksUnannotatedEndpoints(ConfigProvider.getConfig())) {
            SecuredMethods secured = new SecuredMethods(index.getIndex());
            for (RateLimitedMethodBuildItem method : methods) {
                if (!secured.mayBeChecked(method.method())) {
                    open.add(method.methodId());
                }
            }
        }
        return SyntheticBeanBuildItem.configure(OpenEndpoints.class).scope(Singleton.class).unremovable()
                .supplier(recorder.openEndpoints(open)).done();
    }

    /**
     * Each limited endpoint's steps of the application's in Quarkus REST around its decision ({@link RestSteps}):
     * known here, from the filters and interceptors the application declares and the extensions register, not read
     * from Quarkus REST's handler chain at run time.
     */
    @BuildStep
    @Record(STATIC_INIT)
    SyntheticBeanBuildItem recordRestSteps(RateLimitRecorder recorder, CombinedIndexBuildItem index,
            List<RateLimitedMethodBuildItem> methods, List<ContainerRequestFilterBuildItem> requestFilters,
            List<ContainerResponseFilterBuildItem> responseFilters, List<WriterInterceptorBuildItem> writers) {
        List<AbstractInterceptorBuildItem> answerSteps = new ArrayList<>(responseFilters);
        answerSteps.addAll(writers);
        RestStepsAroundTheLimiter steps = new RestStepsAroundTheLimiter(index.getIndex(), requestFilters, answerSteps);
        Set<String> afterRequestSteps = new TreeSet<>();
        Set<String> withAnswerSteps = new TreeSet<>();
        for (RateLimitedMethodBuildItem method : methods) {
            if (steps.stepsBeforeLimiter(method.method())) {
                afterRequestSteps.add(method.methodId());
            }
            if (steps.stepsOnAnswers(method.method())) {
                withAnswerSteps.add(method.methodId());
            }
        }
        return SyntheticBeanBuildItem.configure(RestSteps.class).scope(Singleton.class).unremovable()
                .supplier(recorder.restSteps(afterRequestSteps, withAnswerSteps)).done();
    }

    @BuildStep
    @Record(RUNTIME_INIT)
    void earlyRefusalFilter(Capabilities capabilities, RateLimitBuildConfig config, RateLimitRecorder recorder,
            BuildProducer<FilterBuildItem> filters) {
        if (capabilities.isPresent(Capability.RESTEASY_REACTIVE) && config.decideBeforeDispatch()) {
            filters.produce(new FilterBuildItem(recorder.earlyRefusalFilter(), EarlyRefusalFilter.PRIORITY));
        }
    }

    private static boolean checksUnannotatedEndpoints(Config config) {
        Optional<String> defaultRoles = config.getOptionalValue("quarkus.security.jaxrs.default-roles-allowed",
                String.class);
        return config.getOptionalValue("quarkus.security.jaxrs.deny-unannotated-endpoints", Boolean.class)
                .orElse(false)
                || config.getOptionalValue("quarkus.security.deny-unannotated-members", Boolean.class).orElse(false)
                || defaultRoles.filter(roles -> !roles.isBlank()).isPresent();
    }
}
