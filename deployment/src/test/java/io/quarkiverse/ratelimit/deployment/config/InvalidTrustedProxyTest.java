package io.quarkiverse.ratelimit.deployment.config;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A trusted proxy must be an address or a CIDR range: start-up fails naming the property. */
class InvalidTrustedProxyTest {

    @RegisterExtension
    static final QuarkusUnitTest app = StartupFailures.expect(
            "quarkus.rate-limit.client-address.trusted-proxies holds '10.0.0.0/33', which is not an IP address or a CIDR range")
            .overrideConfigKey("quarkus.rate-limit.client-address.trusted-proxies", "10.0.0.0/33");

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
