package io.quarkiverse.ratelimit.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Path templates in keys: regular expressions dropped and slashes normalized, so one endpoint has one name. */
class EndpointNamesTest {

    @Test
    void templatesKeepTheirNamesOnly() {
        assertThat(EndpointNames.template("//carriers/{carrier}/labels/")).isEqualTo("/carriers/{carrier}/labels");
        assertThat(EndpointNames.template("/labels/{id: \\d+}")).isEqualTo("/labels/{id}");
        assertThat(EndpointNames.template("/labels/{ id :[a-z]+}/x")).isEqualTo("/labels/{id}/x");
        assertThat(EndpointNames.template("/")).isEqualTo("/");
    }
}
