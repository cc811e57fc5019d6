package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A cluster client cannot send WAIT to a decision's master: durable decisions with it are refused at start-up. */
class DurableInClusterTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.durable.replicas is 1, but the Redis client is a cluster client")
            .overrideConfigKey("quarkus.redis.client-type", "cluster")
            .overrideConfigKey("quarkus.redis.hosts", "redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.rate-limit.durable.replicas", "1");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
