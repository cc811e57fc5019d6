package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A time zone of calendar periods that this JVM does not know fails start-up naming the property. */
class UnknownTimeZoneTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.time-zone is 'Europe/Atlantis', which is not a time zone")
            .overrideConfigKey("quarkus.rate-limit.time-zone", "Europe/Atlantis");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
