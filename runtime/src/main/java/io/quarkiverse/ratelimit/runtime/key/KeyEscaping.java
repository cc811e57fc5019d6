package io.quarkiverse.ratelimit.runtime.key;

import java.nio.charset.StandardCharsets;

/**
 * The one escaping of values that become part of a Redis key (tenant ids, client addresses, argument values, endpoint
 * paths): letters, digits and the characters a caller declares safe stay as they are, every other byte of the UTF-8
 * form becomes {@code %XX}. Injective, so no two values escape to the same text, and no value can produce a character
 * that is not safe: a tenant can neither open a hash tag nor end a key segment.
 */
public final class KeyEscaping {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private KeyEscaping() {
    }

    /** @param alsoSafe the characters besides ASCII letters and digits that stay as they are ({@code %} never does) */
    public static String escape(String value, String alsoSafe) {
        for (int i = 0; i < value.length(); i++) {
            if (!isSafe(value.charAt(i), alsoSafe)) {
                return escapeFrom(value, i, alsoSafe);
            }
        }
        return value;
    }

    private static String escapeFrom(String value, int first, String alsoSafe) {
        StringBuilder escaped = new StringBuilder(value.length() + 16).append(value, 0, first);
        for (byte b : value.substring(first).getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (c < 0x80 && isSafe(c, alsoSafe)) {
                escaped.append(c);
            } else {
                escaped.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
        }
        return escaped.toString();
    }

    private static boolean isSafe(char c, String alsoSafe) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c != '%' && alsoSafe.indexOf(c) >= 0;
    }
}
