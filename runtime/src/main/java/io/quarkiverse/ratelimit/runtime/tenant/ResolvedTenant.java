package io.quarkiverse.ratelimit.runtime.tenant;

/**
 * The tenant of one call.
 *
 * @param id the tenant as its source gave it; {@code null} when the call has none and counts in a shared or
 *        per-address bucket
 * @param tag the hash tag of its keys ({@code TenantTags})
 */
public record ResolvedTenant(String id, String tag) {
}
