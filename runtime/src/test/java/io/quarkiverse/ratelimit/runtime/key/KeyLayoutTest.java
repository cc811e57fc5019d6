package io.quarkiverse.ratelimit.runtime.key;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.Scope;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.MethodLimits;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;

/**
 * Every key and channel the extension writes, pinned: a change of the key layout changes what a running fleet and
 * Redis's memory hold, so it must be a decision (the upgrade notes say so), never an accident.
 */
class KeyLayoutTest {

    private final RateLimitKeys keys = new RateLimitKeys("rate-limit");

    @Test
    void aTenantsCounterPerAlgorithm() {
        assertThat(keys.key("acme", limit("search", Algorithm.SLIDING_WINDOW_COUNTER, Scope.TENANT)))
                .isEqualTo("rate-limit:{acme}:search:sw");
        assertThat(keys.key("acme", limit("search", Algorithm.FIXED_WINDOW, Scope.TENANT)))
                .isEqualTo("rate-limit:{acme}:search:fw");
        assertThat(keys.key("acme", limit("search", Algorithm.SLIDING_WINDOW_LOG, Scope.TENANT)))
                .isEqualTo("rate-limit:{acme}:search:sl");
        assertThat(keys.key("acme", limit("search", Algorithm.TOKEN_BUCKET, Scope.TENANT)))
                .isEqualTo("rate-limit:{acme}:search:tb");
        assertThat(keys.key("acme", limit("search", Algorithm.GCRA, Scope.TENANT)))
                .isEqualTo("rate-limit:{acme}:search:gc");
    }

    @Test
    void aLimitPerEndpointAndPerParameter() {
        LimitDefinition labels = LimitDefinition.builder("labels", 100, 60_000).policy("labels")
                .endpoint("POST:/carriers/{carrier}/labels").keyParameters(List.of(0)).build();
        MethodLimits method = new MethodLimits(List.of(labels), ReturnKind.SYNCHRONOUS, Map.of("carrier", 0), Map.of(),
                false);

        assertThat(keys.keys(method, "tiny-shop", null, new Object[] { "ups" }))
                .containsExactly("rate-limit:{tiny-shop}:labels:POST:/carriers/{carrier}/labels:ups:sw");
        assertThat(keys.keys(method, "tiny-shop", null, new Object[] { null }))
                .containsExactly("rate-limit:{tiny-shop}:labels:POST:/carriers/{carrier}/labels:~null:sw");
        assertThat(keys.keys(method, "tiny-shop", null, new Object[] { "a:b{c}" }))
                .containsExactly("rate-limit:{tiny-shop}:labels:POST:/carriers/{carrier}/labels:a%3Ab%7Bc%7D:sw");
    }

    @Test
    void aCallMixingScopesSharesTheTagOfItsFirstLimitThatIsNotPerTenant() {
        MethodLimits method = new MethodLimits(List.of(limit("mixed-tenant", Algorithm.SLIDING_WINDOW_COUNTER,
                Scope.TENANT), limit("mixed-global", Algorithm.FIXED_WINDOW, Scope.GLOBAL),
                limit("mixed-address", Algorithm.GCRA, Scope.CLIENT_ADDRESS)), ReturnKind.SYNCHRONOUS);

        assertThat(RateLimitKeys.callTag(method)).isEqualTo("~m:mixed-global");
        assertThat(keys.keys(method, "acme", TenantTags.forClientAddress("10.0.0.1"), null)).containsExactly(
                "rate-limit:{~m:mixed-global}:acme:mixed-tenant:sw",
                "rate-limit:{~m:mixed-global}:~global:mixed-global:fw",
                "rate-limit:{~m:mixed-global}:~ip:10.0.0.1:mixed-address:gc");
    }

    @Test
    void concurrencyLeasesThresholdMarkersRunTimeLimitsSwitchesTheFleetAndTheInvalidationChannel() {
        assertThat(keys.concurrencyKey("acme", "reports")).isEqualTo("rate-limit:{acme}:reports:cl");
        assertThat(RateLimitKeys.thresholdMarker("rate-limit:{acme}:search:fw", 80, 20416))
                .isEqualTo("rate-limit:{acme}:search:fw:th80:20416");
        assertThat(keys.runTimeLimitsKey()).isEqualTo("rate-limit:{~run-time-limits}");
        assertThat(keys.runTimeLimitsVersionKey()).isEqualTo("rate-limit:{~run-time-limits}:version");
        assertThat(keys.switchesKey()).isEqualTo("rate-limit:{~run-time-limits}:switches");
        assertThat(keys.fleetKey()).isEqualTo("rate-limit:{~fleet}");
        assertThat(keys.invalidationChannel()).isEqualTo("rate-limit:invalidations");
    }

    @Test
    void tenantTagsAreEscapedOrHashedSoNoTenantCanBreakOrShareAKey() {
        assertThat(TenantTags.forTenant("acme.com")).isEqualTo("acme.com");
        assertThat(TenantTags.forTenant("a}b:c d")).isEqualTo("a%7Db%3Ac%20d");
        assertThat(TenantTags.forTenant("x".repeat(65))).startsWith("~h:").hasSize(3 + 43);
        assertThat(TenantTags.forClientAddress("2001:db8::1")).isEqualTo("~ip:2001%3Adb8%3A%3A1");
    }

    private static LimitDefinition limit(String name, Algorithm algorithm, Scope scope) {
        return LimitDefinition.builder(name, 10, 60_000).algorithm(algorithm).scope(scope).build();
    }
}
