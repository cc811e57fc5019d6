package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A tenant's plan must be configured: start-up fails naming the property. */
class UnknownPlanOfTenantTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.tenants.\"acme\".plan is 'gold', but no plan of that name is configured")
            .overrideConfigKey("quarkus.rate-limit.tenants.acme.plan", "gold");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
