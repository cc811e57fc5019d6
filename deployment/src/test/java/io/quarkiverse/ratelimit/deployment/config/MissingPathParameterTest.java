package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** The tenant's path parameter must be a parameter of every method that uses it: start-up fails naming the property. */
class MissingPathParameterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "takes its tenant from the parameter 'tenant' (quarkus.rate-limit.tenant.path-parameter), but has no"
                    + " parameter of that name (it has [carrier])")
            .overrideConfigKey("quarkus.rate-limit.policies.labels.tenant.source", "path-parameter");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
