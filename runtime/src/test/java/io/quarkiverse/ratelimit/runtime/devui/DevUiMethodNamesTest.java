package io.quarkiverse.ratelimit.runtime.devui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Dev UI names a limited method as a person reads it: no package, and a REST Client by its interface. */
class DevUiMethodNamesTest {

    @Test
    void aMethodWithoutItsPackage() {
        assertThat(RateLimitJsonRpcService.method("org.acme.CarrierResource#createLabel(java.lang.String)"))
                .isEqualTo("CarrierResource#createLabel(java.lang.String)");
    }

    @Test
    void aRestClientMethodByItsInterfaceNotTheGeneratedBean() {
        assertThat(RateLimitJsonRpcService.method("org.acme.CarrierApi$$CDIWrapper#createLabel()"))
                .isEqualTo("CarrierApi#createLabel()");
    }
}
