package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A rejected call needs an error status: start-up fails naming the property. */
class InvalidMissingStatusTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "The missing-tenant status of limit 'Labels.label' is 200, but a refused call needs a 4xx or 5xx status")
            .overrideConfigKey("quarkus.rate-limit.tenant.missing-status", "200");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
