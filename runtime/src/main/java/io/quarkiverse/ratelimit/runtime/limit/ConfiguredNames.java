package io.quarkiverse.ratelimit.runtime.limit;

import java.util.Set;
import java.util.TreeSet;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.config.UnusedPolicies;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Every name the configuration uses must name something: a tenant's plan a configured plan, a plan's policy and a
 * policy one that an annotation uses. A name that names nothing is almost always misspelt, and the limit it was meant
 * to change silently keeps its annotation's values, so start-up fails naming the property and the closest name in use
 * (a policy may be left unused on purpose, in configuration that several applications share:
 * {@code quarkus.rate-limit.unused-policies=warn}).
 */
final class ConfiguredNames {

    private static final Logger LOG = Logger.getLogger(ConfiguredNames.class);
    private static final String PREFIX = "quarkus.rate-limit.";

    private ConfiguredNames() {
    }

    static void check(RateLimitConfig config, DeclaredLimits methods) {
        config.tenants().forEach((tenant, settings) -> settings.plan().ifPresent(plan -> {
            if (!config.plans().containsKey(plan)) {
                String property = PREFIX + "tenants.\"" + tenant + "\".plan";
                throw new ConfigurationException(property + " is '" + plan + "', but no plan of that name is"
                        + " configured (quarkus.rate-limit.plans." + plan + ".<policy>.limit)"
                        + ClosestName.suggestion(plan, config.plans().keySet()), Set.of(property));
            }
        }));
        Set<String> usedPolicies = new TreeSet<>();
        methods.all().values().forEach(method -> method.getLimits().forEach(limit -> {
            if (limit.getPolicy() != null) {
                usedPolicies.add(limit.getPolicy());
            }
        }));
        config.plans().forEach((plan, policies) -> policies.keySet().forEach(policy -> {
            if (!usedPolicies.contains(policy)) {
                String property = PREFIX + "plans." + plan + "." + policy;
                throw new ConfigurationException(property + ".* names policy '" + policy + "', which no @RateLimited"
                        + " uses" + ClosestName.suggestion(policy, usedPolicies) + " (policies in use: " + usedPolicies
                        + ")", Set.of(property));
            }
        }));
        config.policies().keySet().stream().filter(policy -> !usedPolicies.contains(policy)).sorted()
                .forEach(policy -> unusedPolicy(config.unusedPolicies(), policy, usedPolicies));
    }

    private static void unusedPolicy(UnusedPolicies unusedPolicies, String policy, Set<String> usedPolicies) {
        String property = PREFIX + "policies." + policy;
        String message = property + ".* is configured, but no @RateLimited(policy = \"" + policy + "\") uses it"
                + ClosestName.suggestion(policy, usedPolicies) + " (policies in use: " + usedPolicies + ")";
        if (unusedPolicies == UnusedPolicies.FAIL) {
            throw new ConfigurationException(message + "; quarkus.rate-limit.unused-policies=warn starts the application"
                    + " with a warning instead", Set.of(property));
        }
        LOG.warn(message);
    }
}
