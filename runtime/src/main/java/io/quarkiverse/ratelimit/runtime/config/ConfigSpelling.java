package io.quarkiverse.ratelimit.runtime.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How an enum value is written where people write it (configuration, the admin endpoints' JSON, switches stored in
 * Redis, the Dev UI): {@code FAIL_CLOSED} as {@code fail-closed}; and back. Not every enum's {@code DEFAULT}: that
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

    /** The values one may write for {@code type}: every constant but {@code DEFAULT}, spelt as written. */
    public static List<String> realValues(Class<? extends Enum<?>> type) {
        return Arrays.stream(type.getEnumConstants()).filter(constant -> !constant.name().equals("DEFAULT"))
                .map(ConfigSpelling::of).toList();
    }
}
