package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A plan's failure mode set to {@code default} fails start-up naming the plan's property. */
class PlanFailureModeDefaultTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.plans.free.labels.failure-mode must be one of fail-open, fail-closed, local, but is"
                    + " default")
            .overrideConfigKey("quarkus.rate-limit.plans.free.labels.limit", "5")
            .overrideConfigKey("quarkus.rate-limit.plans.free.labels.failure-mode", "default");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
