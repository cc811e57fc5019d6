package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A policy's max-wait on an algorithm that cannot hold a later slot (the annotation's sliding window counter) fails
 * start-up naming the property.
 */
class WaitOnAWindowByPolicyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.policies.labels.max-wait is 2000ms; only the token bucket and GCRA can hold a later"
                    + " slot")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.max-wait", "2s");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
