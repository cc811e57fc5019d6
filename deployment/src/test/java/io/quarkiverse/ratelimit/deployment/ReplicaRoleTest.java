package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** Decisions write, so a client aimed at a replica would fail every one: start-up refuses it. */
class ReplicaRoleTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.redis.role", "replica")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("quarkus.redis.role is replica, but the rate limiter's scripts write and must run on a"
                            + " master"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
