package io.quarkiverse.ratelimit.runtime.observe;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The value of the {@code tenant} tag of the decision meters: the tenant's own for the first {@code max-tenants}
 * tenants, {@code other} for every later one (a meter per tenant would grow without bound), {@code none} for a limit
 * that has no tenant.
 */
final class TenantTagValues {

    static final String NO_TENANT = "none";
    static final String OTHER_TENANTS = "other";

    private final int maxTenants;
    private final Set<String> tagged = ConcurrentHashMap.newKeySet();

    TenantTagValues(int maxTenants) {
        this.maxTenants = maxTenants;
    }

    String valueOf(String tenant) {
        if (tenant == null) {
            return NO_TENANT;
        }
        if (tagged.contains(tenant)) {
            return tenant;
        }
        synchronized (tagged) {
            if (tagged.size() < maxTenants) {
                tagged.add(tenant);
                return tenant;
            }
        }
        return tagged.contains(tenant) ? tenant : OTHER_TENANTS;
    }
}
