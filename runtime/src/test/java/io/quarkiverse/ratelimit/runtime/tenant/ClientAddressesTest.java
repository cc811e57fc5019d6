package io.quarkiverse.ratelimit.runtime.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.ConfigurationException;

/** Address literals, CIDR ranges and IPv6 buckets, without any DNS lookup. */
class ClientAddressesTest {

    private final ClientAddresses addresses = new ClientAddresses(List.of(), 64);

    @Test
    void onlyAddressLiteralsAreAddressesNeverHostNames() {
        assertThat(ClientAddresses.literal("192.0.2.1")).isNotNull();
        assertThat(ClientAddresses.literal("2001:db8::1")).isNotNull();
        assertThat(ClientAddresses.literal("localhost")).isNull();
        assertThat(ClientAddresses.literal("example.com")).isNull();
        assertThat(ClientAddresses.literal("unknown")).isNull();
        assertThat(ClientAddresses.literal("_hidden")).isNull();
        assertThat(ClientAddresses.literal("")).isNull();
        assertThat(ClientAddresses.literal("1".repeat(100))).isNull();
    }

    @Test
    void oneClientHasOneBucketHoweverItsAddressIsSpelt() {
        assertThat(addresses.bucket(ClientAddresses.literal("2001:0db8:0000:0001:0000:0000:0000:0003")))
                .isEqualTo(addresses.bucket(ClientAddresses.literal("2001:db8:0:1::ffff")))
                .isEqualTo("2001:db8:0:1:0:0:0:0/64");
        assertThat(addresses.bucket(ClientAddresses.literal("2001:db8:0:2::1"))).isEqualTo("2001:db8:0:2:0:0:0:0/64");
        assertThat(addresses.bucket(ClientAddresses.literal("::ffff:192.0.2.1"))).isEqualTo("192.0.2.1");
        assertThat(new ClientAddresses(List.of(), 128).bucket(ClientAddresses.literal("2001:db8::1")))
                .isEqualTo("2001:db8:0:0:0:0:0:1");
    }

    @Test
    void rangesContainTheirAddressesOnly() {
        ClientAddresses.Cidr private10 = ClientAddresses.Cidr.parse("10.0.0.0/8");
        assertThat(private10.contains(ClientAddresses.literal("10.255.1.2"))).isTrue();
        assertThat(private10.contains(ClientAddresses.literal("11.0.0.1"))).isFalse();
        assertThat(private10.contains(ClientAddresses.literal("::1"))).isFalse();
        ClientAddresses.Cidr single = ClientAddresses.Cidr.parse("192.0.2.7");
        assertThat(single.contains(ClientAddresses.literal("192.0.2.7"))).isTrue();
        assertThat(single.contains(ClientAddresses.literal("192.0.2.8"))).isFalse();
        ClientAddresses.Cidr ula = ClientAddresses.Cidr.parse("fd00::/8");
        assertThat(ula.contains(ClientAddresses.literal("fd12:3456::1"))).isTrue();
        assertThat(ula.contains(ClientAddresses.literal("fe80::1"))).isFalse();
        assertThat(ClientAddresses.Cidr.parse("0.0.0.0/0").contains(ClientAddresses.literal("203.0.113.9"))).isTrue();
    }

    @Test
    void aBadRangeFailsStartUpNamingTheProperty() {
        for (String bad : List.of("10.0.0.0/33", "proxy.internal", "10.0.0.0/x", "fd00::/129", "")) {
            assertThatThrownBy(() -> new ClientAddresses(List.of(bad), 64)).as(bad)
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("quarkus.rate-limit.client-address.trusted-proxies");
        }
        assertThatThrownBy(() -> new ClientAddresses(List.of(), 0))
                .hasMessageContaining("quarkus.rate-limit.client-address.ipv6-prefix-length");
    }
}
