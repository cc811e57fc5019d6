package io.quarkiverse.ratelimit.runtime.config;

import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

@ConfigGroup
public interface ClientAddressConfig {

    /**
     * The proxies (IP addresses or CIDR ranges, such as {@code 10.0.0.0/8} or {@code fd00::/8}) whose
     * {@code Forwarded} and {@code X-Forwarded-For} headers are believed. The client address is the connection's
     * peer unless the peer is one of these; then it is the nearest address in the forwarding chain that is not
     * one of these. Empty by default: no header is believed, so no client can choose its own bucket. Independent
     * of {@code quarkus.http.proxy.*}.
     */
    Optional<List<String>> trustedProxies();

    /**
     * IPv6 clients are counted per network of this prefix length: one subscriber usually holds a whole /64 and
     * could otherwise take a fresh bucket per address. 128 counts every address alone.
     */
    @WithDefault("64")
    int ipv6PrefixLength();
}
