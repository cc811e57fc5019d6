package io.quarkiverse.ratelimit.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/** HTTP permissions checked inside Quarkus REST keep every refusal there, however they are configured. */
class EarlyRefusalsTest {

    private static boolean permissionsInRest(Map<String, String> properties) {
        return EarlyRefusals.permissionsInRest(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 100)).build());
    }

    @Test
    void aPermissionForQuarkusRestOnlyIsFoundAsAPropertyOrAnEnvironmentVariable() {
        assertThat(permissionsInRest(Map.of("quarkus.http.auth.permission.api.applies-to", "JAXRS"))).isTrue();
        assertThat(permissionsInRest(Map.of("quarkus.http.auth.permission.\"my api\".applies-to", "jaxrs"))).isTrue();
        assertThat(permissionsInRest(Map.of("QUARKUS_HTTP_AUTH_PERMISSION_API_APPLIES_TO", "JAXRS"))).isTrue();
    }

    @Test
    void aPermissionCheckedBeforeQuarkusRestIsNot() {
        assertThat(permissionsInRest(Map.of("quarkus.http.auth.permission.api.applies-to", "ALL"))).isFalse();
        assertThat(permissionsInRest(Map.of("quarkus.http.auth.permission.api.paths", "/api/*"))).isFalse();
        assertThat(permissionsInRest(Map.of())).isFalse();
    }
}
