package io.quarkiverse.ratelimit.deployment;

import static io.quarkus.deployment.annotations.ExecutionTime.RUNTIME_INIT;
import static io.quarkus.deployment.annotations.ExecutionTime.STATIC_INIT;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;

import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;

import io.quarkiverse.ratelimit.ConcurrencyLimitExceededException;
import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.RateLimitExceededException;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.RateLimiterUnavailableException;
import io.quarkiverse.ratelimit.TenantBlockedException;
import io.quarkiverse.ratelimit.TenantRequiredException;
import io.quarkiverse.ratelimit.runtime.RateLimitRecorder;
import io.quarkiverse.ratelimit.runtime.admin.BlockingRateLimitAdmin;
import io.quarkiverse.ratelimit.runtime.admin.RedisRateLimitAdmin;
import io.quarkiverse.ratelimit.runtime.admitted.Admissions;
import io.quarkiverse.ratelimit.runtime.admitted.CallCosts;
import io.quarkiverse.ratelimit.runtime.admitted.LateSettlements;
import io.quarkiverse.ratelimit.runtime.clock.VertxClock;
import io.quarkiverse.ratelimit.runtime.concurrency.ConcurrencyLeases;
import io.quarkiverse.ratelimit.runtime.config.BuildCapabilities;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.decide.CallAdmitter;
import io.quarkiverse.ratelimit.runtime.decide.CallResolver;
import io.quarkiverse.ratelimit.runtime.decide.ProgrammaticRateLimiter;
import io.quarkiverse.ratelimit.runtime.decide.SlotWaits;
import io.quarkiverse.ratelimit.runtime.decide.TenantUsage;
import io.quarkiverse.ratelimit.runtime.fleet.FleetSize;
import io.quarkiverse.ratelimit.runtime.http.ConcurrencyLimitExceededExceptionMapper;
import io.quarkiverse.ratelimit.runtime.http.HeaderSettings;
import io.quarkiverse.ratelimit.runtime.http.RateLimitExceededExceptionMapper;
import io.quarkiverse.ratelimit.runtime.http.RateLimitRequestFilter;
import io.quarkiverse.ratelimit.runtime.http.RateLimiterUnavailableExceptionMapper;
import io.quarkiverse.ratelimit.runtime.http.TenantBlockedExceptionMapper;
import io.quarkiverse.ratelimit.runtime.http.TenantRequiredExceptionMapper;
import io.quarkiverse.ratelimit.runtime.intercept.ConcurrencyLimitInterceptor;
import io.quarkiverse.ratelimit.runtime.intercept.RateLimitInterceptor;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.lease.LeasedCounts;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredConcurrencyLimits;
import io.quarkiverse.ratelimit.runtime.limit.DeclaredLimits;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.observe.DecisionMetrics;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObservers;
import io.quarkiverse.ratelimit.runtime.observe.DecisionTraces;
import io.quarkiverse.ratelimit.runtime.outgoing.AdaptiveLimits;
import io.quarkiverse.ratelimit.runtime.outgoing.UpstreamAnswers;
import io.quarkiverse.ratelimit.runtime.outgoing.UpstreamPauses;
import io.quarkiverse.ratelimit.runtime.policy.CodeLimits;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeLimits;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeSettings;
import io.quarkiverse.ratelimit.runtime.policy.RunTimeSwitches;
import io.quarkiverse.ratelimit.runtime.policy.TenantGate;
import io.quarkiverse.ratelimit.runtime.policy.TenantPlans;
import io.quarkiverse.ratelimit.runtime.redis.ClusterNodes;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.LuaScript;
import io.quarkiverse.ratelimit.runtime.redis.RateLimitScripts;
import io.quarkiverse.ratelimit.runtime.redis.RedisClientOptions;
import io.quarkiverse.ratelimit.runtime.redis.RedisClockReadings;
import io.quarkiverse.ratelimit.runtime.redis.RedisDecisions;
import io.quarkiverse.ratelimit.runtime.redis.RedisTransport;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkiverse.ratelimit.runtime.resilience.DecisionGuard;
import io.quarkiverse.ratelimit.runtime.resilience.FailureModes;
import io.quarkiverse.ratelimit.runtime.resilience.GuardedRedis;
import io.quarkiverse.ratelimit.runtime.startup.RedisAtStartup;
import io.quarkiverse.ratelimit.runtime.startup.StartupChecks;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkiverse.ratelimit.runtime.tenant.ClientAddresses;
import io.quarkiverse.ratelimit.runtime.tenant.RequestTenantResolver;
import io.quarkiverse.ratelimit.runtime.watch.QuotaThresholds;
import io.quarkiverse.ratelimit.runtime.watch.RefusedCallers;
import io.quarkiverse.ratelimit.runtime.watch.RefusedMost;
import io.quarkiverse.ratelimit.runtime.watch.ShadowRefusals;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.BeanDiscoveryFinishedBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.GeneratedFileSystemResourceBuildItem;
import io.quarkus.deployment.builditem.RunTimeConfigurationDefaultBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.redis.deployment.client.RequestedRedisClientBuildItem;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.resteasy.reactive.spi.ContainerRequestFilterBuildItem;
import io.quarkus.resteasy.reactive.spi.ExceptionMapperBuildItem;
import io.quarkus.vertx.http.deployment.BodyHandlerBuildItem;
import io.quarkus.vertx.http.deployment.NonApplicationRootPathBuildItem;
import io.quarkus.vertx.http.deployment.RouteBuildItem;

class RateLimitProcessor {

    static final String FEATURE = "rate-limit";

    /** The administration endpoints, under the non-application root ({@code /q/rate-limit}). */
    static final String ADMIN_PATH = "rate-limit";

    /** Where the application's build writes the assembled scripts, under its output directory. */
    static final String ASSEMBLED_SCRIPTS = "quarkus-rate-limit/lua/";

    /** After {@code Priorities.USER} (5000): an application's own mapper for these exceptions wins. */
    private static final int MAPPER_PRIORITY = 5100;

    /** Pool defaults that let a burst of concurrent requests queue for a connection rather than fail. */
    static final Map<String, String> REDIS_POOL_DEFAULTS = Map.of("max-pool-size", "16", "max-pool-waiting", "4096");

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    AdditionalIndexedClassesBuildItem indexInterceptorBinding() {
        return new AdditionalIndexedClassesBuildItem(RateLimited.class.getName(), RateLimited.List.class.getName(),
                ConcurrencyLimited.class.getName());
    }

    @BuildStep
    AdditionalBeanBuildItem beans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(RateLimitInterceptor.class, CallResolver.class, CallAdmitter.class, Admissions.class,
                        VertxClock.class,
                        RedisDecisions.class, RedisClockReadings.class,
                        DecisionGuard.class, QuotaThresholds.class, ShadowRefusals.class, DecisionObservers.class,
                        DecisionMetrics.class, DecisionTraces.class, GuardedRedis.class, FailureModes.class,
                        ProgrammaticRateLimiter.class, TenantUsage.class, RefusedCallers.class, RefusedMost.class,
                        SlotWaits.class, UpstreamPauses.class,
                        UpstreamAnswers.class,
                        CallCosts.class, LateSettlements.class,
                        ConcurrencyLeases.class,
                        ConcurrencyLimitInterceptor.class,
                        ScriptRunner.class, RedisTransport.class, RedisClientOptions.class, ClusterNodes.class,
                        InvalidationChannel.class, FleetSize.class, LeasedCounts.class,
                        RateLimitKeys.class,
                        RequestTenantResolver.class,
                        ClientAddresses.class,
                        EffectiveLimits.class, TenantPlans.class, TenantGate.class, RunTimeSettings.class, RunTimeLimits.class,
                        RunTimeSwitches.class, LimitModes.class, AdaptiveLimits.class, CodeLimits.class,
                        RedisRateLimitAdmin.class, BlockingRateLimitAdmin.class, LimiterStatus.class,
                        StartupChecks.class, RedisAtStartup.class, HeaderSettings.class)
                .setUnremovable()
                .build();
    }

    @BuildStep
    void scanRateLimitedMethods(CombinedIndexBuildItem index, Capabilities capabilities,
            BuildProducer<RateLimitedMethodBuildItem> methods, BuildProducer<RateLimitProblemBuildItem> problems) {
        new RateLimitedMethodScanner(index.getIndex(), message -> problems.produce(new RateLimitProblemBuildItem(message)),
                tokensAvailable(capabilities))
                .scan().forEach(methods::produce);
    }

    /**
     * The {@code CostOf} classes of the limits ({@code @RateLimited(costOf)}) are beans, {@code @Singleton} when they
     * declare no scope, looked up by class at start-up (loadable by name in a native image too).
     */
    @BuildStep
    void costBeans(List<RateLimitedMethodBuildItem> methods, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<ReflectiveClassBuildItem> reflective) {
        Set<String> costOf = new TreeSet<>();
        methods.forEach(method -> method.limits().getLimits().forEach(limit -> {
            if (limit.getCostOf() != null) {
                costOf.add(limit.getCostOf());
            }
        }));
        if (costOf.isEmpty()) {
            return;
        }
        beans.produce(AdditionalBeanBuildItem.builder().addBeanClasses(costOf).setUnremovable()
                .setDefaultScope(DotName.createSimple(Singleton.class)).build());
        reflective.produce(ReflectiveClassBuildItem.builder(costOf.toArray(String[]::new)).build());
    }

    @BuildStep
    void scanConcurrencyLimitedMethods(CombinedIndexBuildItem index,
            BuildProducer<ConcurrencyLimitedMethodBuildItem> methods, BuildProducer<RateLimitProblemBuildItem> problems) {
        new ConcurrencyLimitedMethodScanner(index.getIndex(),
                message -> problems.produce(new RateLimitProblemBuildItem(message)))
                .scan().forEach(methods::produce);
    }

    @BuildStep
    @Record(STATIC_INIT)
    SyntheticBeanBuildItem recordRateLimitedMethods(RateLimitRecorder recorder, List<RateLimitedMethodBuildItem> methods) {
        Map<String, MethodLimits> byMethodId = new LinkedHashMap<>();
        for (RateLimitedMethodBuildItem method : methods) {
            byMethodId.put(method.methodId(), method.limits());
        }
        return recorded(DeclaredLimits.class, recorder.rateLimitedMethods(byMethodId));
    }

    @BuildStep
    @Record(STATIC_INIT)
    SyntheticBeanBuildItem recordConcurrencyLimitedMethods(RateLimitRecorder recorder,
            List<ConcurrencyLimitedMethodBuildItem> methods) {
        Map<String, ConcurrencyDefinition> byMethodId = new LinkedHashMap<>();
        for (ConcurrencyLimitedMethodBuildItem method : methods) {
            byMethodId.put(method.methodId(), method.limit());
        }
        return recorded(DeclaredConcurrencyLimits.class, recorder.concurrencyLimitedMethods(byMethodId));
    }

    @BuildStep
    @Record(STATIC_INIT)
    SyntheticBeanBuildItem recordCapabilities(RateLimitRecorder recorder, Capabilities capabilities) {
        return recorded(BuildCapabilities.class, recorder.capabilities(tokensAvailable(capabilities)));
    }

    /** A singleton bean whose instance the build recorded. */
    private static <T> SyntheticBeanBuildItem recorded(Class<T> type, Supplier<T> instance) {
        return SyntheticBeanBuildItem.configure(type).scope(Singleton.class).unremovable().supplier(instance).done();
    }

    /** Reports every annotation problem at once, plus limited methods the interceptor cannot reach. */
    @BuildStep
    void reportProblems(BeanDiscoveryFinishedBuildItem beans, List<RateLimitedMethodBuildItem> methods,
            List<ConcurrencyLimitedMethodBuildItem> concurrencyMethods, List<RateLimitProblemBuildItem> problems,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<Throwable> failures = new ArrayList<>();
        problems.forEach(problem -> failures.add(new DeploymentException(problem.message())));

        Set<DotName> beanClasses = new HashSet<>();
        for (BeanInfo bean : beans.beanStream().classBeans()) {
            beanClasses.add(bean.getBeanClass());
        }
        List<MethodInfo> limited = new ArrayList<>();
        methods.forEach(method -> limited.add(method.method()));
        concurrencyMethods.forEach(method -> limited.add(method.method()));
        for (MethodInfo info : limited) {
            if (!beanClasses.contains(info.declaringClass().name()) && !AnnotatedMethods.isRestClient(info.declaringClass())) {
                failures.add(new DeploymentException("Rate limiting on " + AnnotatedMethods.describe(info)
                        + " has no effect: " + info.declaringClass().name() + " is not a CDI bean; give it a bean"
                        + " defining annotation such as @ApplicationScoped, or make it a REST resource"));
            }
        }
        if (!failures.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(failures));
        }
    }

    @BuildStep
    @Record(RUNTIME_INIT)
    void adminEndpoints(RateLimitBuildConfig config, RateLimitRecorder recorder,
            NonApplicationRootPathBuildItem nonApplicationRoot, BodyHandlerBuildItem bodyHandler,
            BuildProducer<RouteBuildItem> routes) {
        if (config.admin().enabled()) {
            routes.produce(nonApplicationRoot.routeBuilder()
                    .routeFunction(ADMIN_PATH + "/*", recorder.readingBodies(bodyHandler.getHandler()))
                    .handler(recorder.adminHandler(nonApplicationRoot.resolvePath(ADMIN_PATH)))
                    .build());
        }
    }

    @BuildStep
    RequestedRedisClientBuildItem requestRedisClient(RateLimitBuildConfig config) {
        return new RequestedRedisClientBuildItem(clientName(config));
    }

    @BuildStep
    UnremovableBeanBuildItem keepRedisClients() {
        return UnremovableBeanBuildItem.beanTypes(io.vertx.mutiny.redis.client.Redis.class);
    }

    @BuildStep
    void redisPoolDefaults(RateLimitBuildConfig config, BuildProducer<RunTimeConfigurationDefaultBuildItem> defaults) {
        REDIS_POOL_DEFAULTS.forEach((property, value) -> defaults.produce(
                new RunTimeConfigurationDefaultBuildItem(RedisConfig.getPropertyName(clientName(config), property), value)));
    }

    /**
     * Writes the code as Redis runs it to {@code target/quarkus-rate-limit/lua/}, where it can be read and diffed: the
     * function library ({@code library.lua}), and the scripts ({@code lua/} files assembled for each set of algorithms
     * the declared limits use, and every single algorithm).
     */
    @BuildStep
    void assembledScripts(List<RateLimitedMethodBuildItem> methods,
            BuildProducer<GeneratedFileSystemResourceBuildItem> files) {
        Set<Integer> algorithmSets = new TreeSet<>(RateLimitScripts.singleAndAllAlgorithmSets());
        methods.forEach(method -> algorithmSets.add(method.limits().algorithmSet()));
        RateLimitScripts scripts = new RateLimitScripts();
        for (int algorithmSet : algorithmSets) {
            String set = RateLimitScripts.setName(algorithmSet);
            files.produce(script("rate_limit-" + set, scripts.decide(algorithmSet)));
            files.produce(script("refund-" + set, scripts.refund(algorithmSet)));
        }
        files.produce(script("concurrency", scripts.concurrency()));
        files.produce(new GeneratedFileSystemResourceBuildItem(ASSEMBLED_SCRIPTS + "library.lua",
                scripts.library().source().getBytes(StandardCharsets.UTF_8)));
    }

    private static GeneratedFileSystemResourceBuildItem script(String name, LuaScript script) {
        return new GeneratedFileSystemResourceBuildItem(ASSEMBLED_SCRIPTS + name + ".lua",
                script.source().getBytes(StandardCharsets.UTF_8));
    }

    @BuildStep
    NativeImageResourceBuildItem luaScriptsInNativeImage() {
        return new NativeImageResourceBuildItem(
                RateLimitScripts.FILES.stream().map(file -> LuaScript.RESOURCE_DIRECTORY + file).toList());
    }

    @BuildStep
    void exceptionMappers(Capabilities capabilities, BuildProducer<ExceptionMapperBuildItem> mappers) {
        if (!capabilities.isPresent(Capability.RESTEASY_REACTIVE)) {
            return;
        }
        mappers.produce(new ExceptionMapperBuildItem(RateLimitExceededExceptionMapper.class.getName(),
                RateLimitExceededException.class.getName(), MAPPER_PRIORITY, false));
        mappers.produce(new ExceptionMapperBuildItem(RateLimiterUnavailableExceptionMapper.class.getName(),
                RateLimiterUnavailableException.class.getName(), MAPPER_PRIORITY, false));
        mappers.produce(new ExceptionMapperBuildItem(ConcurrencyLimitExceededExceptionMapper.class.getName(),
                ConcurrencyLimitExceededException.class.getName(), MAPPER_PRIORITY, false));
        mappers.produce(new ExceptionMapperBuildItem(TenantRequiredExceptionMapper.class.getName(),
                TenantRequiredException.class.getName(), MAPPER_PRIORITY, false));
        mappers.produce(new ExceptionMapperBuildItem(TenantBlockedExceptionMapper.class.getName(),
                TenantBlockedException.class.getName(), MAPPER_PRIORITY, false));
    }

    /**
     * REST endpoints are decided on the event loop before dispatch (a refused call never takes a worker thread); the
     * filter is non-blocking, so Quarkus REST runs it before switching a blocking endpoint to a worker.
     */
    @BuildStep
    void decideBeforeDispatch(Capabilities capabilities, RateLimitBuildConfig config,
            BuildProducer<ContainerRequestFilterBuildItem> filters) {
        if (!capabilities.isPresent(Capability.RESTEASY_REACTIVE) || !config.decideBeforeDispatch()) {
            return;
        }
        filters.produce(new ContainerRequestFilterBuildItem.Builder(RateLimitRequestFilter.class.getName())
                .setNonBlockingRequired(true)
                .setPriority(RateLimitRequestFilter.PRIORITY)
                .setRegisterAsBean(true)
                .build());
    }

    /** Whether the application authenticates JSON Web Tokens, whose claims can name the tenant. */
    static boolean tokensAvailable(Capabilities capabilities) {
        return capabilities.isPresent(Capability.JWT) || capabilities.isPresent(Capability.OIDC);
    }

    static String clientName(RateLimitBuildConfig config) {
        return RateLimitBuildConfig.redisClient(config);
    }
}
