package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A threshold is a share of the limit from 1 to 100 percent: start-up fails naming the property. */
class ThresholdOutOfRangeTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.thresholds holds 120, but a threshold is a share of the limit from 1 to 100 percent")
            .overrideConfigKey("quarkus.rate-limit.thresholds", "80,120");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
