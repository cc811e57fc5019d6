package io.quarkiverse.ratelimit.deployment.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The usage endpoint has no method parameter to take a tenant from: with the path-parameter source, start-up fails
 * naming the property, instead of every read failing later.
 */
class UsageEndpointWithPathParameterTenantTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.rate-limit.usage.enabled", "true")
            .overrideConfigKey("quarkus.rate-limit.tenant.source", "path-parameter")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("The usage endpoint (quarkus.rate-limit.usage.enabled) takes its tenant from the parameter")
                    .contains("quarkus.rate-limit.tenant.path-parameter"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
