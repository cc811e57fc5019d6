package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A decision could never wait for its acknowledgement: start-up refuses it, naming the property. */
class DurableTimeoutBeyondDecisionTimeoutTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.durable.timeout (PT2S) must be less than quarkus.rate-limit.decision-timeout (PT1S)")
            .overrideConfigKey("quarkus.rate-limit.durable.replicas", "1")
            .overrideConfigKey("quarkus.rate-limit.durable.timeout", "2s");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
