package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A fleet heartbeat of nothing fails start-up naming the property: no instance would ever be heard. */
class ZeroFleetHeartbeatTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.fleet.heartbeat must be greater than zero, but is 0 ms")
            .overrideConfigKey("quarkus.rate-limit.fleet.heartbeat", "0s");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
