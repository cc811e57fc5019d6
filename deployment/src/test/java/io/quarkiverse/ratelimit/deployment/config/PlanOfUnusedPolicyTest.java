package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A plan's values must name a policy some limit uses: start-up fails naming the property and the closest policy. */
class PlanOfUnusedPolicyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.plans.gold.lables.* names policy 'lables', which no @RateLimited uses; did you mean"
                    + " 'labels'? (policies in use: [labels])")
            .overrideConfigKey("quarkus.rate-limit.plans.gold.lables.limit", "5");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
