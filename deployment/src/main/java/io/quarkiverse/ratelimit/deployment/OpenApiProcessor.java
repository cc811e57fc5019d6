package io.quarkiverse.ratelimit.deployment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.MissingTenant;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.TenantSource;
import io.quarkiverse.ratelimit.deployment.openapi.LimitedOperation;
import io.quarkiverse.ratelimit.deployment.openapi.LimitedOperations;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.TenantRule;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.smallrye.openapi.deployment.spi.AddToOpenAPIDefinitionBuildItem;

/**
 * The limits as a contract: with quarkus-smallrye-openapi in the application, every limited REST operation's refusals
 * and limits go into the OpenAPI document Quarkus builds (nothing at run time). The limits are those the annotations and
 * the configuration say when the application is built: a value the environment sets at start-up is not in it.
 */
class OpenApiProcessor {

    @BuildStep
    void describeLimitedOperations(Capabilities capabilities, RateLimitBuildConfig config,
            List<RateLimitedMethodBuildItem> rateLimited, List<ConcurrencyLimitedMethodBuildItem> concurrencyLimited,
            BuildProducer<AddToOpenAPIDefinitionBuildItem> filters) {
        if (!capabilities.isPresent(Capability.SMALLRYE_OPENAPI) || !config.openapi().enabled()) {
            return;
        }
        BuildTimeValues values = new BuildTimeValues(ConfigProvider.getConfig());
        Map<String, LimitedOperation> operations = new TreeMap<>();
        for (RateLimitedMethodBuildItem method : rateLimited) {
            String operation = EndpointNames.operation(method.method());
            if (operation != null && !method.limits().isOutgoing()) {
                operations.merge(operation, values.rateLimited(method.limits().getLimits()), LimitedOperation::and);
            }
        }
        for (ConcurrencyLimitedMethodBuildItem method : concurrencyLimited) {
            String operation = EndpointNames.operation(method.method());
            if (operation != null) {
                operations.merge(operation, values.concurrencyLimited(method.limit()), LimitedOperation::and);
            }
        }
        if (!operations.isEmpty()) {
            filters.produce(new AddToOpenAPIDefinitionBuildItem(LimitedOperations.filter(operations)));
        }
    }

    /** The configuration as the build sees it: a policy's values where the annotation leaves them to it. */
    private static final class BuildTimeValues {

        private static final String PREFIX = "quarkus.rate-limit.";

        private final Config config;

        BuildTimeValues(Config config) {
            this.config = config;
        }

        LimitedOperation rateLimited(List<LimitDefinition> limits) {
            List<Map<String, Object>> described = new ArrayList<>(limits.size());
            boolean failsClosed = false;
            boolean perTenant = false;
            int missingTenantStatus = 0;
            for (LimitDefinition limit : limits) {
                String policy = limit.getPolicy();
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("name", limit.getName());
                if (policy != null) {
                    item.put("policy", policy);
                }
                // configuration overrides the annotation, as at run time
                long quota = policyValue(policy, "limit").map(value -> Long.valueOf(value.trim()))
                        .orElse(limit.getLimit());
                item.put("quota", quota);
                if (limit.getCalendarPeriod() != CalendarPeriod.NONE) {
                    item.put("period", ConfigSpelling.of(limit.getCalendarPeriod()));
                } else {
                    long windowMillis = policyValue(policy, "window")
                            .map(value -> DurationConverter.parseDuration(value.trim()).toMillis())
                            .orElse(limit.getWindowMillis());
                    item.put("window", ConfigSpelling.window(windowMillis));
                }
                // spelt as configuration spells them, whichever way the property was written (FIXED_WINDOW, fixed-window)
                item.put("algorithm", ConfigSpelling.of(policyValue(policy, "algorithm")
                        .map(value -> constant(Algorithm.class, value)).orElse(limit.getAlgorithm())));
                String scope = ConfigSpelling.of(policyValue(policy, "scope").map(value -> constant(Scope.class, value))
                        .orElse(limit.getScope()));
                item.put("scope", scope);
                described.add(item);
                failsClosed |= failsClosed(limit.getFailureMode(), policy);
                if (scope.equals(ConfigSpelling.of(Scope.TENANT))) {
                    perTenant = true;
                    missingTenantStatus = Math.max(missingTenantStatus, missingTenantStatus(
                            TenantRule.of(limit.getTenantSource(), applicationTenants(), policyTenants(policy))));
                }
            }
            return new LimitedOperation(described, failsClosed, perTenant, missingTenantStatus);
        }

        LimitedOperation concurrencyLimited(ConcurrencyDefinition limit) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("name", limit.getName());
            item.put("concurrent-calls", limit.getLimit());
            item.put("algorithm", LimitedOperations.CONCURRENCY);
            item.put("scope", ConfigSpelling.of(Scope.TENANT));
            return new LimitedOperation(List.of(item), failsClosed(limit.getFailureMode(), null), true,
                    missingTenantStatus(TenantRule.of(TenantSource.DEFAULT, applicationTenants(), null)));
        }

        private boolean failsClosed(FailureMode declared, String policy) {
            String mode = declared != FailureMode.DEFAULT ? ConfigSpelling.of(declared)
                    : policyValue(policy, "failure-mode").orElseGet(() -> value("failure-mode").orElse("local"));
            return mode.equals(ConfigSpelling.of(FailureMode.FAIL_CLOSED));
        }

        /** The status of a call without a tenant under {@code rule}; 0 when such a call is counted, not refused. */
        private static int missingTenantStatus(TenantRule rule) {
            return rule.missing() == MissingTenant.REJECT ? rule.missingStatus() : 0;
        }

        private TenantRule.Settings applicationTenants() {
            return new TenantRule.Settings(value("tenant.source").map(v -> constant(TenantSource.class, v)),
                    value("tenant.header").isPresent(), value("tenant.missing").map(v -> constant(MissingTenant.class, v)),
                    value("tenant.missing-status").map(v -> OptionalInt.of(Integer.parseInt(v.trim())))
                            .orElse(OptionalInt.empty()));
        }

        private TenantRule.Settings policyTenants(String policy) {
            if (policy == null) {
                return null;
            }
            return new TenantRule.Settings(policyValue(policy, "tenant.source").map(v -> constant(TenantSource.class, v)),
                    false, policyValue(policy, "tenant.missing").map(v -> constant(MissingTenant.class, v)),
                    policyValue(policy, "tenant.missing-status").map(v -> OptionalInt.of(Integer.parseInt(v.trim())))
                            .orElse(OptionalInt.empty()));
        }

        private static <E extends Enum<E>> E constant(Class<E> type, String value) {
            return Enum.valueOf(type, ConfigSpelling.constant(value));
        }

        private Optional<String> policyValue(String policy, String property) {
            if (policy == null) {
                return Optional.empty();
            }
            return value("policies.\"" + policy + "\"." + property).or(() -> value("policies." + policy + "." + property));
        }

        private Optional<String> value(String property) {
            return config.getOptionalValue(PREFIX + property, String.class);
        }

    }
}
