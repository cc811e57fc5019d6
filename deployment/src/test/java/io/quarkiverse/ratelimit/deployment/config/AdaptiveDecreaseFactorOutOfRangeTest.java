package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A decrease factor that would not lower an adaptive limit (1 or more) fails start-up naming the property. */
class AdaptiveDecreaseFactorOutOfRangeTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.adaptive.decrease-factor is the share of the learned limit a 429 leaves: above 0 and"
                    + " below 1, but is 1.5")
            .overrideConfigKey("quarkus.rate-limit.adaptive.decrease-factor", "1.5");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
