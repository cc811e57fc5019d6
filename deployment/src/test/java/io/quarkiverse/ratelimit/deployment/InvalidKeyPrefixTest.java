package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A key prefix with a brace would break the hash tag of every key: start-up fails naming the property. */
class InvalidKeyPrefixTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .overrideConfigKey("quarkus.rate-limit.key-prefix", "app{1}")
            .assertException(failure -> assertThat(Throwables.allMessages(failure))
                    .contains("quarkus.rate-limit.key-prefix must be 1 to 64 characters without whitespace, '{' or '}',"
                            + " but is 'app{1}'"));

    @Test
    void startUpFails() {
        fail("Start-up should have failed");
    }
}
