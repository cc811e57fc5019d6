package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** An unknown algorithm fails start-up naming the property: start-up fails naming the property. */
class UnknownAlgorithmTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.policies.labels.algorithm")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.algorithm", "leaky-bucket");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
