package io.quarkiverse.ratelimit.deployment.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.Throwables;
import io.quarkus.test.QuarkusUnitTest;

/** A rollout setting that names no limit of the application fails start-up, naming the property. */
class RolloutConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(SearchResource.class))
            .overrideConfigKey("quarkus.rate-limit.limits.serach.mode", "shadow")
            .assertException(failure -> assertThat(Throwables.allMessages(failure)).contains(
                    "quarkus.rate-limit.limits.\"serach\" names no policy or limit of this application; known: [search]"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
