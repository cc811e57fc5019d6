package io.quarkiverse.ratelimit.runtime.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;

/**
 * The run-time switches of limits (mode, rollout percentage, failure mode: {@link LimitModes} applies them), set by
 * operators ({@code RateLimitAdmin}) and kept with the other run-time settings ({@link RunTimeSettings}: in Redis, a
 * copy on every instance, changes announced).
 */
@Singleton
public class RunTimeSwitches {

    private final RunTimeSettings settings;

    RunTimeSwitches(RunTimeSettings settings) {
        this.settings = settings;
    }

    /**
     * The switches by {@code "<policy or name> <setting>"}, {@code *} standing for every limit; as this instance last
     * saw them.
     */
    public Map<String, String> switches() {
        return settings.switches();
    }

    /** Sets switches of one policy or name ({@code *}: every limit), all at once. */
    public Uni<Void> set(String name, Map<String, String> values) {
        Map<String, String> fields = new LinkedHashMap<>();
        values.forEach((setting, value) -> fields.put(name + ' ' + setting, value));
        return settings.setSwitches(fields);
    }

    /** Removes the switches of one policy or name: configuration applies again. */
    public Uni<Void> clear(String name, List<String> settingNames) {
        return settings.removeSwitches(settingNames.stream().map(setting -> name + ' ' + setting).toList());
    }
}
