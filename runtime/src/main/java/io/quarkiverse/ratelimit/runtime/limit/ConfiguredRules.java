package io.quarkiverse.ratelimit.runtime.limit;

import java.util.Set;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * A {@link io.quarkiverse.ratelimit.LimitRules} rule broken by a configured value fails start-up naming the property
 * the user set. A rule between the algorithm and another setting (burst, max wait, calendar period) names the one the
 * configuration changed: a policy that sets {@code algorithm=fixed-window} on a method whose annotation says
 * {@code burst = 1} names the algorithm property and the annotation attribute it conflicts with, not a burst property
 * set nowhere.
 */
final class ConfiguredRules {

    private ConfiguredRules() {
    }

    /** Fails when {@code violation} is not {@code null}, naming {@code property} and its {@code value}. */
    static void rule(String property, Object value, String violation) {
        if (violation != null) {
            throw new ConfigurationException(property + " is " + (value.equals(0L) ? "not set" : value) + "; "
                    + violation, Set.of(property));
        }
    }

    /**
     * A rule between the algorithm and one other setting.
     *
     * @param prefix the configured limit's properties, ending with a dot ({@code quarkus.rate-limit.policies.printer.})
     * @param setting the other setting's property name ({@code burst})
     * @param attribute the annotation attribute that declares it ({@code burst})
     * @param settingConfigured whether the configuration set the other setting (else the annotation did)
     * @param algorithmConfigured whether the configuration set the algorithm
     */
    static void withAlgorithm(String prefix, Algorithm algorithm, boolean algorithmConfigured, String setting,
            String attribute, boolean settingConfigured, Object value, String limitName, String violation) {
        if (violation == null) {
            return;
        }
        if (algorithmConfigured && !settingConfigured) {
            String property = prefix + "algorithm";
            throw new ConfigurationException(property + " is " + ConfigSpelling.of(algorithm) + ", but the @RateLimited"
                    + " annotation of limit '" + limitName + "' sets " + attribute + " = " + value + "; " + violation
                    + " (change the algorithm, set " + prefix + setting + ", or change the annotation)",
                    Set.of(property));
        }
        rule(settingConfigured ? prefix + setting : prefix + "algorithm", settingConfigured ? value : algorithm,
                violation);
    }
}
