package io.quarkiverse.ratelimit.deployment.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/** A usage endpoint whose own limit is not a limit fails start-up, naming the property. */
class UsageEndpointBadLimitTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.rate-limit.usage.enabled", "true")
            .overrideConfigKey("quarkus.rate-limit.usage.limit", "0")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("quarkus.rate-limit.usage.limit is 0"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
