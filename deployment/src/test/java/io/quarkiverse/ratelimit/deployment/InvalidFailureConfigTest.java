package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

class InvalidFailureConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.rate-limit.circuit-breaker.failure-threshold", "0")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("quarkus.rate-limit.circuit-breaker.failure-threshold must be greater than zero, but is 0"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
