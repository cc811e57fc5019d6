package io.quarkiverse.ratelimit.deployment.openapi;

import java.util.List;
import java.util.Map;

/**
 * What the OpenAPI document tells of one limited REST operation: its limits as configured when the application was
 * built, and the refusals its calls can get besides the 429.
 *
 * @param limits each limit's description, the {@code x-rate-limit} extension's items (name, quota, window,
 *        algorithm, scope; for a concurrency limit, name, concurrent calls and kind)
 * @param failsClosed whether a limit refuses with 503 when Redis cannot decide
 * @param tenantBlockable whether a call has a tenant, which can be blocked (403)
 * @param missingTenantStatus the status of a call without a tenant where one is required; 0 when none is
 */
public record LimitedOperation(List<Map<String, Object>> limits, boolean failsClosed, boolean tenantBlockable,
        int missingTenantStatus) {

    /** This operation with {@code other}'s limits too (a method limited both by rate and by concurrency). */
    public LimitedOperation and(LimitedOperation other) {
        List<Map<String, Object>> both = new java.util.ArrayList<>(limits);
        both.addAll(other.limits);
        return new LimitedOperation(both, failsClosed || other.failsClosed, tenantBlockable || other.tenantBlockable,
                Math.max(missingTenantStatus, other.missingTenantStatus));
    }
}
