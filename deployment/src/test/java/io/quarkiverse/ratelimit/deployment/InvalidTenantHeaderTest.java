package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

class InvalidTenantHeaderTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X Tenant")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("quarkus.rate-limit.tenant.header must be an HTTP header name, but is 'X Tenant'"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
