package io.quarkiverse.ratelimit.runtime.startup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkiverse.ratelimit.runtime.config.RateLimitBuildConfig;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkiverse.ratelimit.runtime.resilience.FailureModes;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import io.quarkus.runtime.StartupEvent;

/**
 * A Redis that cannot be reached at start-up (a wrong port in {@code quarkus.redis.hosts}, Redis not started yet) is
 * said once, in one line that names the property the user set, where it points, and what the limits do meanwhile. The
 * application still starts: Redis may come up after it, and calls connect when it does.
 */
@Singleton
public class RedisAtStartup {

    private static final Logger LOG = Logger.getLogger(RedisAtStartup.class);
    /** Limits named per failure mode in the line; more are counted. */
    private static final int NAMED = 5;

    /** After the scripts' preload, which starts the load this reports on. */
    void report(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) StartupEvent event, ScriptRunner scripts,
            RateLimitBuildConfig fixedConfig, EffectiveLimits limits, FailureModes failureModes) {
        String hostsProperty = RedisConfig.getPropertyName(RateLimitBuildConfig.redisClient(fixedConfig), "hosts");
        scripts.unreachableAtStartup().onSuccess(failure -> {
            if (failure != null) {
                LOG.warn(line(hostsProperty, failure, meanwhile(limits, failureModes)));
            }
        });
    }

    static String line(String hostsProperty, Throwable failure, String meanwhile) {
        String hosts = ConfigProvider.getConfig().getOptionalValue(hostsProperty, String.class)
                .map(RedisAtStartup::withoutCredentials).orElse("not set");
        return "Rate limiter: Redis at " + hosts + " (" + hostsProperty + ") cannot be reached: " + failure.getMessage()
                + ". Until it answers, " + meanwhile + "; the scripts are sent on the first call that reaches it";
    }

    /** What the limits do without Redis: their failure modes, each with the limits that have it. */
    static String meanwhile(EffectiveLimits limits, FailureModes failureModes) {
        Map<String, List<String>> byMode = new TreeMap<>();
        limits.all().values().forEach(method -> {
            for (LimitDefinition limit : method.limits().getLimits()) {
                FailureMode mode = failureModes.failureMode(limit.getFailureMode());
                List<String> names = byMode.computeIfAbsent(ConfigSpelling.of(mode), ignored -> new ArrayList<>());
                if (!names.contains(limit.overrideName())) {
                    names.add(limit.overrideName());
                }
            }
        });
        if (byMode.isEmpty()) {
            return "calls decide by quarkus.rate-limit.failure-mode ("
                    + ConfigSpelling.of(failureModes.failureMode(FailureMode.DEFAULT)) + ")";
        }
        List<String> modes = new ArrayList<>();
        byMode.forEach((mode, names) -> modes.add(mode + ": " + String.join(", ", names.subList(0,
                Math.min(NAMED, names.size()))) + (names.size() > NAMED ? " and " + (names.size() - NAMED) + " more" : "")));
        return "limits decide by their failure mode (" + String.join("; ", modes) + ")";
    }

    /** The hosts as configured, with any user and password taken out of each URI: a log line must not show them. */
    static String withoutCredentials(String hosts) {
        return hosts.replaceAll("//[^/@,]*@", "//");
    }
}
