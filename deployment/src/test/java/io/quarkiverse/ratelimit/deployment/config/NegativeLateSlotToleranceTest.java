package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A negative tolerance for late slots fails start-up naming the property. */
class NegativeLateSlotToleranceTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.late-slot-tolerance must be zero or more, but is PT-0.01S")
            .overrideConfigKey("quarkus.rate-limit.late-slot-tolerance", "-10ms");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
