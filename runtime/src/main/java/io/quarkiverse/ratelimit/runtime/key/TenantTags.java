package io.quarkiverse.ratelimit.runtime.key;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Turns an untrusted tenant value into the hash tag of its Redis keys, injectively and with a bounded length.
 * <ul>
 * <li>letters, digits, {@code .}, {@code -}, {@code _} and {@code @} stay as they are; every other byte of the UTF-8
 * form becomes {@code %XX} (so no tenant can produce <code>{</code>, <code>}</code>, {@code :}, {@code *} or
 * whitespace, and no two tenants escape to the same text);</li>
 * <li>an escaped value longer than {@value #MAX_ESCAPED_LENGTH} characters is replaced by {@code ~h:} and the
 * Base64url SHA-256 of the raw value;</li>
 * <li>tags that are not a tenant id ({@link #forClientAddress}, {@link #ANONYMOUS}) start with {@code ~}, which escaping
 * never produces.</li>
 * </ul>
 */
public final class TenantTags {

    public static final int MAX_ESCAPED_LENGTH = 64;

    /** The shared tag of calls that have no tenant, no principal and no client address (not an HTTP call). */
    public static final String ANONYMOUS = "~anonymous";

    private static final String TENANT_SAFE = ".-_@";

    private TenantTags() {
    }

    public static String forTenant(String tenant) {
        String escaped = escape(tenant);
        return escaped.length() <= MAX_ESCAPED_LENGTH ? escaped : "~h:" + sha256(tenant);
    }

    public static String forClientAddress(String address) {
        return "~ip:" + escape(address);
    }

    /** Tenant ids keep letters, digits, {@code .}, {@code -}, {@code _} and {@code @} ({@link KeyEscaping}). */
    static String escape(String value) {
        return KeyEscaping.escape(value, TENANT_SAFE);
    }

    private static String sha256(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
