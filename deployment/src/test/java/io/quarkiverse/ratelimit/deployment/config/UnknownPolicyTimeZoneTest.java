package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A policy's time zone that this JVM does not know fails start-up naming the policy's property. */
class UnknownPolicyTimeZoneTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.policies.labels.time-zone is 'CEST+1', which is not a time zone")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.time-zone", "CEST+1");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
