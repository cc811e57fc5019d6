package io.quarkiverse.ratelimit.runtime.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How an enum value is written where people write it (configuration, the admin endpoints' JSON, switches stored in
 * Redis, the Dev UI): {@code FAIL_CLOSED} as {@code fail-closed}; and back. And a window, as the Dev UI and the OpenAPI
 * document show it. Not every enum's {@code DEFAULT}: that
 * constant means "not set here" and is never a value to write.
 */
public final class ConfigSpelling {

    private ConfigSpelling() {
    }

    /** {@code FAIL_CLOSED} as {@code fail-closed}. */
    public static String of(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** {@code fail-closed} (or {@code FAIL_CLOSED}, with blanks around) as the constant's name {@code FAIL_CLOSED}. */
    public static String constant(String value) {
        return value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * A window as people write it, in its largest whole unit: {@code 1d}, {@code 2h}, {@code 1m}, {@code 10s},
     * {@code 250ms} ({@code 60s} and {@code PT1M} are both {@code 1m}).
     */
    public static String window(long millis) {
        long[] units = { 86_400_000, 3_600_000, 60_000, 1000 };
        String[] names = { "d", "h", "m", "s" };
        for (int i = 0; i < units.length; i++) {
            if (millis % units[i] == 0) {
                return millis / units[i] + names[i];
            }
        }
        return millis + "ms";
    }

    /** The values one may write for {@code type}: every constant but {@code DEFAULT}, spelt as written. */
    public static List<String> realValues(Class<? extends Enum<?>> type) {
        return Arrays.stream(type.getEnumConstants()).filter(constant -> !constant.name().equals("DEFAULT"))
                .map(ConfigSpelling::of).toList();
    }
}
