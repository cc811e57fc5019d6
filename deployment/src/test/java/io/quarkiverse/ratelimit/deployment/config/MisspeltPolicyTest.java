package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A policy configured under a misspelt name changes no limit: start-up fails naming the property and the policy it
 * most likely meant, instead of leaving the limit at its annotation's values.
 */
class MisspeltPolicyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.policies.lables.* is configured, but no @RateLimited(policy = \"lables\") uses it; did"
                    + " you mean 'labels'? (policies in use: [labels]); quarkus.rate-limit.unused-policies=warn starts"
                    + " the application with a warning instead")
            .overrideConfigKey("quarkus.rate-limit.policies.lables.limit", "3");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
