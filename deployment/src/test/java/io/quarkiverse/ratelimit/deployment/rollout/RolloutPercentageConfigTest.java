package io.quarkiverse.ratelimit.deployment.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/** A rollout percentage outside 0 to 100 fails start-up, naming the property. */
class RolloutPercentageConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(SearchResource.class))
            .overrideConfigKey("quarkus.rate-limit.limits.search.rollout-percentage", "101")
            .assertException(failure -> assertThat(Throwables.allMessages(failure)).contains(
                    "quarkus.rate-limit.limits.\"search\".rollout-percentage must be between 0 and 100, but is 101"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
