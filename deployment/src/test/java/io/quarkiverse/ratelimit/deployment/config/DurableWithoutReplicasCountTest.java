package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A negative replica count is refused at start-up, naming the property. */
class DurableWithoutReplicasCountTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.durable.replicas must be 0 (off) or more, but is -1")
            .overrideConfigKey("quarkus.rate-limit.durable.replicas", "-1");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
