package io.quarkiverse.ratelimit.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/** {@code default} means "not set here" in an annotation; configuration must name a real value, by one rule. */
class DefaultAsAConfiguredValueTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.rate-limit.failure-mode", "default")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("quarkus.rate-limit.failure-mode must be one of fail-open, fail-closed, local, but is"
                            + " default"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
