package io.quarkiverse.ratelimit.runtime.policy;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveLimits;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Each limit's mode for a tenant, and its failure mode. A run-time switch ({@code RateLimitAdmin}, stored with the
 * run-time limits) wins over configuration; a limit's own setting over the global one: the mode is the limit's switch,
 * else {@code quarkus.rate-limit.limits."<policy or name>".mode}, else the global switch, else the global mode; and the
 * global switch, the kill switch, is a ceiling over all of them ({@link #withEveryLimitSwitch}). An
 * enforced limit with a rollout percentage under 100 is enforced for the tenants whose salted hash falls under it, in
 * shadow mode for the others; {@code rollout.always} and {@code rollout.never} override the hash.
 */
@Singleton
public class LimitModes {

    /** The settings a run-time switch can change, and the name that stands for every limit. */
    public static final String MODE = "mode";
    public static final String ROLLOUT_PERCENTAGE = "rollout-percentage";
    public static final String FAILURE_MODE = "failure-mode";
    public static final List<String> SETTINGS = List.of(MODE, ROLLOUT_PERCENTAGE, FAILURE_MODE);
    public static final String EVERY_LIMIT = "*";

    /**
     * A setting's name in the API and the admin endpoints' JSON ({@code rolloutPercentage}) from its name in Redis and
     * configuration ({@code rollout-percentage}).
     */
    public static String settingName(String setting) {
        return switch (setting) {
            case ROLLOUT_PERCENTAGE -> "rolloutPercentage";
            case FAILURE_MODE -> "failureMode";
            default -> setting;
        };
    }

    /** The hash's resolution: a percentage of 25 puts buckets 0 to 2499 in. */
    static final int BUCKETS = 10_000;
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final Mode globalMode;
    private final int globalPercentage;
    private final byte[] salt;
    private final Set<String> always;
    private final Set<String> never;
    private final Map<String, Mode> modeByName;
    private final Map<String, Integer> percentageByName;
    private final boolean everyLimitEnforced;
    private final boolean shadowHeaders;
    /** The run-time switches ({@link RunTimeSwitches#switches()}); {@code null} in unit tests of configuration alone. */
    private final Supplier<Map<String, String>> switches;

    @Inject
    LimitModes(RateLimitConfig config, RunTimeSwitches runTime) {
        this(config.mode(), config.rollout().percentage(), config.rollout().salt(),
                config.rollout().always().orElse(Set.of()), config.rollout().never().orElse(Set.of()),
                modes(config), percentages(config), config.rollout().shadowHeaders(), runTime::switches);
    }

    LimitModes(Mode globalMode, int globalPercentage, String salt, Set<String> always, Set<String> never,
            Map<String, Mode> modeByName, Map<String, Integer> percentageByName, boolean shadowHeaders,
            Supplier<Map<String, String>> switches) {
        this.switches = switches;
        this.globalMode = globalMode;
        this.globalPercentage = globalPercentage;
        this.salt = (salt + '\n').getBytes(StandardCharsets.UTF_8);
        this.always = Set.copyOf(always);
        this.never = Set.copyOf(never);
        this.modeByName = Map.copyOf(modeByName);
        this.percentageByName = Map.copyOf(percentageByName);
        this.shadowHeaders = shadowHeaders;
        this.everyLimitEnforced = globalMode == Mode.ENFORCE && globalPercentage == 100 && never.isEmpty()
                && modeByName.values().stream().allMatch(Mode.ENFORCE::equals)
                && percentageByName.values().stream().allMatch(percentage -> percentage == 100);
    }

    private static Map<String, Mode> modes(RateLimitConfig config) {
        Map<String, Mode> modes = new HashMap<>();
        config.limits().forEach((name, rollout) -> rollout.mode().ifPresent(mode -> modes.put(name, mode)));
        return modes;
    }

    private static Map<String, Integer> percentages(RateLimitConfig config) {
        Map<String, Integer> percentages = new HashMap<>();
        config.limits().forEach((name, rollout) -> rollout.rolloutPercentage()
                .ifPresent(percentage -> percentages.put(name, percentage)));
        return percentages;
    }

    /** Whether every limit is enforced for every tenant (the default): then no call needs {@link #mode}. */
    public boolean everyLimitEnforced() {
        return everyLimitEnforced && switches().isEmpty();
    }

    private Map<String, String> switches() {
        return switches == null ? Map.of() : switches.get();
    }

    /** The limit's failure mode: its run-time switch, else as declared (possibly {@code DEFAULT}). */
    public FailureMode failureMode(LimitDefinition limit) {
        Map<String, String> switched = switches();
        String value = switched.isEmpty() ? null : switched.get(limit.overrideName() + ' ' + FAILURE_MODE);
        return value == null ? limit.getFailureMode() : FailureMode.valueOf(ConfigSpelling.constant(value));
    }

    /** Whether responses carry the headers of limits in shadow mode. */
    public boolean shadowHeaders() {
        return shadowHeaders;
    }

    /** @param tenant the tenant's id; {@code null} for a limit without one (enforced only at 100 %) */
    public Mode mode(LimitDefinition limit, String tenant) {
        String name = limit.overrideName();
        Map<String, String> switched = switches();
        Mode mode = switched.isEmpty() ? null : mode(switched.get(name + ' ' + MODE));
        if (mode == null) {
            mode = modeByName.get(name);
        }
        mode = withEveryLimitSwitch(mode, switched);
        if (mode != Mode.ENFORCE) {
            return mode;
        }
        if (tenant != null && never.contains(tenant)) {
            return Mode.SHADOW;
        }
        if (tenant != null && always.contains(tenant)) {
            return Mode.ENFORCE;
        }
        int percentage = percentage(switched, name);
        if (percentage >= 100) {
            return Mode.ENFORCE;
        }
        return tenant != null && bucket(tenant) < percentage * (BUCKETS / 100) ? Mode.ENFORCE : Mode.SHADOW;
    }

    /**
     * The mode of {@code @ConcurrencyLimited} limits: the switch of every limit, else {@code quarkus.rate-limit.mode}
     * (they have no policy, rollout or switch of their own).
     */
    public Mode concurrencyMode() {
        return withEveryLimitSwitch(null, switches());
    }

    /**
     * The precedence of modes, in one place. A limit's own mode ({@code own}: its run-time switch, else its configured
     * {@code limits."<name>".mode}; {@code null} when it has neither) wins over the global configuration
     * ({@code quarkus.rate-limit.mode}). The run-time switch of every limit ({@code *}, the kill switch) is a ceiling
     * over both: {@code off} turns every limit off, {@code shadow} puts every enforced limit in shadow mode, whatever
     * a limit's own switch or configuration says; {@code enforce} there only stands in for the global configuration.
     */
    private Mode withEveryLimitSwitch(Mode own, Map<String, String> switched) {
        Mode everyLimit = switched.isEmpty() ? null : mode(switched.get(EVERY_LIMIT + ' ' + MODE));
        Mode mode = own != null ? own : everyLimit != null ? everyLimit : globalMode;
        if (everyLimit == Mode.OFF || everyLimit == Mode.SHADOW && mode == Mode.ENFORCE) {
            return everyLimit;
        }
        return mode;
    }

    private int percentage(Map<String, String> switched, String name) {
        String value = switched.isEmpty() ? null : switched.get(name + ' ' + ROLLOUT_PERCENTAGE);
        if (value != null) {
            return Integer.parseInt(value);
        }
        Integer configured = percentageByName.get(name);
        if (configured != null) {
            return configured;
        }
        value = switched.isEmpty() ? null : switched.get(EVERY_LIMIT + ' ' + ROLLOUT_PERCENTAGE);
        return value != null ? Integer.parseInt(value) : globalPercentage;
    }

    private static Mode mode(String value) {
        return value == null ? null : Mode.valueOf(ConfigSpelling.constant(value));
    }

    /**
     * The tenant's place in the rollout, 0 to 9999, the same in every JVM: 64-bit FNV-1a of the salt, a zero byte and
     * the id, then MurmurHash3's finalizer. Not a CRC: a CRC is linear, so ids that differ only in their last
     * characters ({@code customer-1} to {@code customer-200}) land in correlated buckets, and the share of such a
     * group strays from the percentage further than chance allows (a 200-tenant group at 25 % was 74 in a CI run).
     */
    int bucket(String tenant) {
        long hash = FNV_OFFSET_BASIS;
        for (byte b : salt) {
            hash = (hash ^ (b & 0xff)) * FNV_PRIME;
        }
        hash *= FNV_PRIME; // the zero byte: salt "ab" with id "c" is not salt "a" with id "bc"
        for (byte b : tenant.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * FNV_PRIME;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb9fe1a85ec53L;
        hash ^= hash >>> 33;
        return (int) Long.remainderUnsigned(hash, BUCKETS);
    }

    /**
     * Start-up checks: percentages within 0 to 100, and every configured name a policy or limit name the application
     * declares; each failure names its property.
     */
    public static void check(RateLimitConfig config, EffectiveLimits limits) {
        percentage("quarkus.rate-limit.rollout.percentage", config.rollout().percentage());
        Set<String> known = new TreeSet<>();
        limits.all().values().forEach(method -> method.variants().forEach(variant -> {
            List<LimitDefinition> definitions = variant.getLimits();
            definitions.forEach(limit -> {
                known.add(limit.overrideName());
                known.add(limit.getName());
            });
        }));
        config.limits().forEach((name, rollout) -> {
            String prefix = "quarkus.rate-limit.limits.\"" + name + "\"";
            if (!known.contains(name)) {
                throw new ConfigurationException(prefix + " names no policy or limit of this application; known: "
                        + known, Set.of(prefix + ".mode"));
            }
            if (rollout.rolloutPercentage().isPresent()) {
                percentage(prefix + ".rollout-percentage", rollout.rolloutPercentage().getAsInt());
            }
        });
    }

    private static void percentage(String property, int value) {
        if (value < 0 || value > 100) {
            throw new ConfigurationException(property + " must be between 0 and 100, but is " + value,
                    Set.of(property));
        }
    }
}
