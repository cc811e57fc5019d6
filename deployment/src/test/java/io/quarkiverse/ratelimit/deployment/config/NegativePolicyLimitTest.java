package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A policy's limit must be positive: start-up fails naming the property. */
class NegativePolicyLimitTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.policies.labels.limit is -5; it must be greater than zero")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.limit", "-5");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
